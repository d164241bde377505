/**
 * The tolerant reader of upstream ConsultaAereo answers: envelope and both data shapes (Mode A price groups,
 * Mode B / single-airline offers) into domain offers.
 */
export { readUpstreamAnswer, type UpstreamAnswer } from "./upstream-answer.js";
export { readListEntries, type EntryOffers, type OfferListMember } from "./list-entries.js";
export { isPermissionMessage, upstreamFailure } from "./upstream-failure.js";
export type { ReadContext } from "./read-context.js";
export { createOfferInterner, type OfferInterner } from "./offer-interner.js";
export type { SkippedItems } from "./item-reader.js";
export {
  upstreamEnvelopeSchema,
  upstreamErrorSchema,
  upstreamResultHeaderSchema,
  searchTokenOf,
  type UpstreamEnvelope,
  type UpstreamResultHeader,
} from "./envelope-schema.js";
export {
  upstreamModeAResultSchema,
  upstreamFlightSchema,
  upstreamFareGroupSchema,
  upstreamFareSchema,
  upstreamSegmentSchema,
  upstreamLegSchema,
  type UpstreamFlight,
  type UpstreamFareGroup,
  type UpstreamSegment,
  type UpstreamLeg,
} from "./mode-a-schema.js";
export {
  upstreamModeBResultSchema,
  upstreamModeBOfferSchema,
  upstreamOutroSchema,
  upstreamVooSchema,
  upstreamCiaSchema,
  upstreamTaxasSchema,
  type UpstreamModeBOffer,
  type UpstreamOutro,
  type UpstreamVoo,
} from "./mode-b-schema.js";
export { cleanMessage } from "./error-message.js";
export { readDurationText } from "./durations.js";
export { oneWayPrice, roundTripPrices, type DirectionPrice, type GroupAmounts } from "./group-price.js";
export { splitCentavos } from "./split-centavos.js";
