import { z } from "zod";
import { MESSAGE_LEVELS } from "@/lib/carriers/types";

export const Message = z
  .object({
    carrier_name: z.string(),
    carrier_id: z.string(),
    code: z.string(),
    message: z.string(),
    level: z.enum(MESSAGE_LEVELS),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "Message" });
export type Message = z.output<typeof Message>;

export const ErrorEnvelope = z
  .object({
    errors: z.array(z.object({ code: z.string(), message: z.string(), field: z.string().nullable() })),
  })
  .meta({ id: "Error" });

export const MessagesEnvelope = z.object({ messages: z.array(Message) }).meta({ id: "CarrierFailure" });
