/** The spec's form: `/v1/proxy/tracking/{carrier_name}/{tracking_number}`. */
export function proxyTrackingUrl(carrierName: string, trackingNumber: string): string {
  return `/v1/proxy/tracking/${encodeURIComponent(carrierName)}/${encodeURIComponent(trackingNumber)}`;
}
