"use client";

import { useRouter } from "next/navigation";
import { useEffect, useEffectEvent, useState } from "react";
import { FormProvider, useForm, useWatch } from "react-hook-form";
import { toast } from "@/components/ui/toaster";
import { needsCustoms } from "@/lib/client/create-label/customs-form";
import { carrierFieldErrors, ratesFailure, type FailureView } from "@/lib/client/create-label/failures";
import { placeProblems, type FieldError } from "@/lib/client/create-label/field-paths";
import type { CreateLabelOutput, CreateLabelValues } from "@/lib/client/create-label/form-schema";
import { ratingKey } from "@/lib/client/create-label/form-values";
import { defaultValues, type CreateLabelDefaults } from "@/lib/client/create-label/form-defaults";
import { withDefaultPreset, type ParcelPreset } from "@/lib/client/create-label/parcel-presets";
import { CHEAPEST_RULE, preselectRate, type RateRuleSetting } from "@/lib/client/create-label/rate-rule";
import { formatMoney } from "@/lib/client/format";
import { serviceName, type RateSort } from "@/lib/client/create-label/rates-view";
import { AddressFieldset } from "./address-fieldset";
import { BuySection } from "./buy-section";
import { CustomsFieldset, useCustomsPrefill } from "./customs-fieldset";
import { createLabelResolver, loadFormChecks, preloadFormChecks } from "./form-checks";
import { LabelOptionsFieldset } from "./label-options-fieldset";
import { ParcelFieldset } from "./parcel-fieldset";
import { PriceChangeDialog } from "./price-change-dialog";
import { rateChoice } from "./rate-card";
import { RatesPanel, type CarrierSummary } from "./rates-panel";
import { useBuyLabel, type Bought } from "./use-buy-label";
import { useCreateLabelDraft, type DraftOwner } from "./use-draft";
import { useRates } from "./use-rates";

export interface CreateLabelFormProps {
  defaults: CreateLabelDefaults;
  /** The active connections rating will ask. */
  carriers: readonly CarrierSummary[];
  /** The organization's own boxes (offered before the built-in ones); its default one fills a blank parcel. */
  presets?: readonly ParcelPreset[];
  /** How a rate is preselected when rates arrive (the organization's rule; cheapest by default). */
  rateRule?: RateRuleSetting;
  /** Whose draft this is: drafts are kept in this browser per person and organization. */
  owner: DraftOwner;
}

function boughtToast({ shipment, rate, previous }: Bought, nextLabel: () => void) {
  const price = formatMoney(rate.total_charge, rate.currency);
  const description = previous
    ? `At the carrier's new price: ${price} instead of ${formatMoney(previous.total_charge, previous.currency)}.`
    : shipment.tracking_number
      ? `Tracking number ${shipment.tracking_number}`
      : undefined;
  toast.success(`Label bought: ${serviceName(rate)}, ${price}`, {
    description,
    action: { label: "Next label", onClick: nextLabel },
    // Long enough to reach "Next label" from the keyboard.
    duration: 10_000,
  });
}

/** Create label: the form on the left, the rates and the purchase in a panel beside it (below it on narrow screens). */
const NO_PRESETS: readonly ParcelPreset[] = [];

/** The page's defaults with the organization's default box in the first parcel (server-rendered, so never late). */
function withDefaultParcel(values: CreateLabelValues, presets: readonly ParcelPreset[]): CreateLabelValues {
  const [first, ...rest] = values.parcels;
  return first ? { ...values, parcels: [withDefaultPreset(first, presets), ...rest] } : values;
}

export function CreateLabelForm(props: CreateLabelFormProps) {
  const { defaults, carriers, presets = NO_PRESETS, rateRule = CHEAPEST_RULE, owner } = props;
  const router = useRouter();
  const form = useForm<CreateLabelValues, unknown, CreateLabelOutput>({
    resolver: createLabelResolver,
    defaultValues: withDefaultParcel(defaultValues(defaults), presets),
  });
  const draft = useCreateLabelDraft(form, owner);
  const rates = useRates();
  const [sort, setSort] = useState<RateSort>("price");
  const [choice, setChoice] = useState<string | null>(null);
  const [ratesProblem, setRatesProblem] = useState<FailureView | null>(null);
  const [ruleNote, setRuleNote] = useState<string | null>(null);
  const buy = useBuyLabel({
    onBought: (bought) => {
      draft.bought(form.getValues());
      boughtToast(bought, () => router.push("/shipments/new"));
      router.push(`/shipments/${encodeURIComponent(bought.shipment.id ?? "")}`);
    },
  });

  // Re-rendered on every change, so the rates are marked stale the moment the form no longer matches them.
  const [shipperCountry, recipientCountry] = useWatch({
    control: form.control,
    name: ["shipper.country_code", "recipient.country_code"],
  });
  useWatch({ control: form.control });
  const stale = rates.quote !== null && ratingKey(form.getValues()) !== rates.quote.key;
  const chosen = rates.quote?.rates.find((r) => rateChoice(r) === choice) ?? null;

  /** Problems onto their fields, and the focus onto the first of them. */
  function showOnFields(fields: readonly FieldError[]) {
    for (const f of fields) form.setError(f.field, { type: "server", message: f.message });
    if (fields[0]) form.setFocus(fields[0].field);
  }

  const getRates = form.handleSubmit(async (output) => {
    setRatesProblem(null);
    buy.clearFailure();
    try {
      const quote = await rates.getRates(output, ratingKey(form.getValues()));
      if (quote) {
        showOnFields(carrierFieldErrors(quote.messages));
        // The organization's rule chooses unless the clerk's choice is still offered: Buy is then one click away.
        const preselected = preselectRate(quote.rates, rateRule);
        const offered = (c: string | null) => quote.rates.some((r) => rateChoice(r) === c);
        setRuleNote(offered(choice) ? null : preselected.note);
        setChoice((current) => (offered(current) ? current : preselected.rate ? rateChoice(preselected.rate) : null));
      }
    } catch (error) {
      const view = ratesFailure(error);
      setRatesProblem(view);
      showOnFields(view.fields);
    }
  });

  async function startBuy() {
    const failure = await buy.buy(async () => {
      if (!chosen || stale) return null;
      const output = await new Promise<CreateLabelOutput | null>((resolve) => {
        void form.handleSubmit(resolve, () => resolve(null))();
      });
      if (!output) return null;
      const { buyProblems, shipmentRequest } = await loadFormChecks();
      const missing = placeProblems(buyProblems(output)).fields;
      if (missing.length > 0) {
        showOnFields(missing);
        return null;
      }
      return { body: shipmentRequest(output, chosen), chosen };
    });
    if (failure) showOnFields(failure.fields);
  }

  const onShortcut = useEffectEvent((event: KeyboardEvent) => {
    if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey) || buy.busy || buy.priceChange) return;
    event.preventDefault();
    if (chosen && !stale && !rates.pending) void startBuy();
    else void getRates();
  });
  useEffect(preloadFormChecks, []);
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onShortcut(event);
    window.addEventListener("keydown", listener);
    return () => window.removeEventListener("keydown", listener);
  }, []);

  const abroad = shipperCountry !== recipientCountry;
  const customs = needsCustoms({
    shipper: { country_code: shipperCountry },
    recipient: { country_code: recipientCountry },
  });
  useCustomsPrefill(form, customs, chosen?.currency ?? rates.quote?.rates[0]?.currency ?? null);
  return (
    <FormProvider {...form}>
      {/* Laid out by the room it has (the shell's sidebar takes some), not by the window's width. */}
      <div className="@container">
        <form
          noValidate
          onSubmit={getRates}
          aria-label="Create label"
          className="grid items-start gap-6 @4xl:grid-cols-[minmax(0,1fr)_minmax(20rem,24rem)]"
        >
          <fieldset disabled={buy.busy} className="@container grid min-w-0 gap-6">
            <p className="text-sm text-muted-foreground">
              Fields marked <span className="text-destructive">*</span> are needed to buy the label; rates need only the
              countries, postal codes and weight.
            </p>
            <div className="grid items-start gap-6 @4xl:grid-cols-2">
              <AddressFieldset
                side="shipper"
                legend="Ship from"
                abroad={abroad}
                owner={owner}
                carrier={chosen?.carrier_name ?? null}
              />
              <AddressFieldset
                side="recipient"
                legend="Ship to"
                abroad={abroad}
                owner={owner}
                carrier={chosen?.carrier_name ?? null}
                ratedResidential={rates.quote && !stale ? rates.quote.recipientResidential : null}
              />
            </div>
            <div className="grid items-start gap-6 @3xl:grid-cols-2">
              <ParcelFieldset own={presets} />
              <LabelOptionsFieldset carrier={chosen?.carrier_name ?? null} />
            </div>
            {customs && <CustomsFieldset from={shipperCountry} to={recipientCountry} />}
          </fieldset>
          <div className="@4xl:sticky @4xl:top-6 @4xl:max-h-[calc(100dvh-3rem)] @4xl:overflow-y-auto">
            <RatesPanel
              carriers={carriers}
              quote={rates.quote}
              stale={stale}
              pending={rates.pending}
              failure={ratesProblem}
              sort={sort}
              onSort={setSort}
              choice={choice}
              onChoose={setChoice}
              rule={rateRule}
              ruleNote={ruleNote}
              locked={buy.busy}
            >
              <BuySection
                chosen={chosen}
                stale={stale}
                stage={buy.stage}
                failure={buy.failure}
                onBuy={() => void startBuy()}
              />
            </RatesPanel>
          </div>
        </form>
      </div>
      <PriceChangeDialog
        change={buy.priceChange}
        onAccept={() => void buy.acceptPrice().then((failure) => failure && showOnFields(failure.fields))}
        onDecline={() => {
          buy.declinePrice();
          rates.discard();
        }}
      />
    </FormProvider>
  );
}
