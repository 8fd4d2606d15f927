import {
  CheckboxField as AnyCheckboxField,
  SelectField as AnySelectField,
  TextField as AnyTextField,
  type CheckboxFieldProps,
} from "@/components/forms/form-fields";
import type { CreateLabelField } from "@/lib/client/create-label/field-paths";
import type { CreateLabelValues } from "@/lib/client/create-label/form-schema";

/** The form fields (components/forms) typed to the create-label form's values, so a misspelt name fails to compile. */
export const TextField = AnyTextField<CreateLabelValues>;
export const SelectField = AnySelectField<CreateLabelValues>;

/** The create-label form's checkboxes are its boolean fields. */
export const CheckboxField = (
  props: CheckboxFieldProps<CreateLabelValues> & {
    name: Extract<CreateLabelField, `${string}.${"certify" | "commercial_invoice" | "residential"}`>;
  },
) => <AnyCheckboxField<CreateLabelValues> {...props} />;
