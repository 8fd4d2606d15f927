import * as address from "@/app/v1/addresses/[id]/route";
import * as addresses from "@/app/v1/addresses/route";
import * as addressValidate from "@/app/v1/addresses/validate/route";
import * as parcelPreset from "@/app/v1/parcel_presets/[id]/route";
import * as parcelPresets from "@/app/v1/parcel_presets/route";
import * as rateRule from "@/app/v1/rate_rule/route";
import * as apiKey from "@/app/v1/api_keys/[id]/route";
import * as apiKeys from "@/app/v1/api_keys/route";
import * as auditEvents from "@/app/v1/audit_events/route";
import * as carriers from "@/app/v1/carriers/route";
import * as eventRedeliver from "@/app/v1/events/[id]/redeliver/route";
import * as event from "@/app/v1/events/[id]/route";
import * as events from "@/app/v1/events/route";
import * as connection from "@/app/v1/connections/[id]/route";
import * as connections from "@/app/v1/connections/route";
import * as proxyRates from "@/app/v1/proxy/rates/route";
import * as proxyShipping from "@/app/v1/proxy/shipping/route";
import * as proxyTracking from "@/app/v1/proxy/tracking/[carrier_name]/[tracking_number]/route";
import * as shipmentCancel from "@/app/v1/shipments/[id]/cancel/route";
import * as shipmentDocument from "@/app/v1/shipments/[id]/documents/[document_id]/route";
import * as shipmentDocuments from "@/app/v1/shipments/[id]/documents/route";
import * as shipmentLabel from "@/app/v1/shipments/[id]/label/route";
import * as shipmentPurchase from "@/app/v1/shipments/[id]/purchase/route";
import * as shipment from "@/app/v1/shipments/[id]/route";
import * as shipments from "@/app/v1/shipments/route";
import * as trackerByNumber from "@/app/v1/trackers/[id]/[tracking_number]/route";
import * as trackerRefresh from "@/app/v1/trackers/[id]/refresh/route";
import * as trackerShare from "@/app/v1/trackers/[id]/share/route";
import * as tracker from "@/app/v1/trackers/[id]/route";
import * as trackers from "@/app/v1/trackers/route";
import * as webhookDeliveries from "@/app/v1/webhooks/[id]/deliveries/route";
import * as webhookRotateSecret from "@/app/v1/webhooks/[id]/rotate-secret/route";
import * as webhook from "@/app/v1/webhooks/[id]/route";
import * as webhookTest from "@/app/v1/webhooks/[id]/test/route";
import * as webhooks from "@/app/v1/webhooks/route";

import * as batches from "@/app/v1/batches/route";
import * as batchMapping from "@/app/v1/batches/mapping/route";
import * as batch from "@/app/v1/batches/[id]/route";
import * as batchPurchase from "@/app/v1/batches/[id]/purchase/route";
import * as batchRetry from "@/app/v1/batches/[id]/retry/route";
import * as batchDecisions from "@/app/v1/batches/[id]/decisions/route";
import * as batchCancel from "@/app/v1/batches/[id]/cancel/route";
import * as batchFailedCsv from "@/app/v1/batches/[id]/failed.csv/route";
import * as batchLabelsPdf from "@/app/v1/batches/[id]/labels.pdf/route";
import * as batchLabelsZpl from "@/app/v1/batches/[id]/labels.zpl/route";
import * as batchPackingList from "@/app/v1/batches/[id]/packing-list.pdf/route";
/**
 * The route modules the OpenAPI document describes, in the document's order. Each operation is declared in its own
 * route file; this list only says where they are (test/openapi.test.ts fails when a route file is missing here).
 */
export const apiRoutes: readonly Record<string, unknown>[] = [
  apiKeys,
  apiKey,
  carriers,
  connections,
  connection,
  proxyRates,
  proxyShipping,
  proxyTracking,
  shipments,
  shipment,
  shipmentPurchase,
  shipmentCancel,
  shipmentLabel,
  shipmentDocuments,
  shipmentDocument,
  batches,
  batchMapping,
  batch,
  batchPurchase,
  batchRetry,
  batchDecisions,
  batchCancel,
  batchFailedCsv,
  batchLabelsPdf,
  batchLabelsZpl,
  batchPackingList,
  addressValidate,
  addresses,
  address,
  parcelPresets,
  parcelPreset,
  rateRule,
  trackers,
  trackerByNumber,
  tracker,
  trackerRefresh,
  trackerShare,
  webhooks,
  webhook,
  webhookRotateSecret,
  webhookTest,
  webhookDeliveries,
  events,
  event,
  eventRedeliver,
  auditEvents,
];
