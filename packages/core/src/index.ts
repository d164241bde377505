/**
 * @voar/core: progressive flight search as an RxJS Observable of snapshots, the wire contract as zod
 * schemas, the domain model, Mode A price groups and Mode B fare comparison. Runtime-neutral.
 */

// Domain
export { money, moneyFromDecimal, centavosFromDecimal, toDecimal, addMoney, zeroMoney, type Money } from "./domain/money.js";
export {
  AIRLINES,
  ALL_AIRLINES,
  INTERLINE,
  LIVELO,
  OTA_COMPARISON,
  airlineById,
  airlineByIata,
  programmeSource,
  type Airline,
  type AirlineKind,
} from "./domain/airline.js";
export { companhiaOf, queryKey, type Passengers, type SearchMode, type SearchQuery } from "./query/query.js";
export { flightKey, routeConfiguration, type Carrier, type Direction, type Itinerary, type Leg } from "./domain/itinerary.js";
export {
  elapsedMinutes,
  formatDurationHm,
  offsetMinutesAt,
  parseDurationText,
  utcMsToLocal,
  zonedToUtcMs,
} from "./domain/time-zone.js";
export {
  boardingTaxesOf,
  checkedOnly,
  discountOf,
  isCashOffer,
  savingPercent,
  serviceFeeOf,
  type Baggage,
  type ListedFare,
  type MilesPrice,
  type Offer,
  type PassengerFare,
  type PassengerType,
  type Seller,
  type SellerDiscount,
} from "./domain/offer.js";
export type { Airport, AirportDirectory } from "./domain/airport.js";

// Utilities
export { hash53 } from "./util/hash53.js";

// Errors
export {
  AuthError,
  BusinessError,
  HttpStatusError,
  MalformedPayload,
  PermissionDenied,
  RateLimited,
  RequestBudgetExhausted,
  SourceTimeout,
  SourceUnavailable,
  TransportError,
  isRetryable,
  retriesWithinSearch,
  isSourceError,
  toSourceError,
  type SourceError,
  type SourceErrorTag,
} from "./errors/source-errors.js";
export {
  CALENDAR_BUDGET_FAILURE,
  ERROR_CATALOGUE,
  ERROR_CODES,
  SOURCE_FAILURE,
  failedSearchAnswer,
  failedSearchCode,
  isErrorCode,
  NOT_RETRYABLE_FAILURE_MESSAGE,
  type ErrorCatalogueEntry,
  type FailedSearchAnswer,
  type SourceFailureCode,
  type ErrorCode,
  type ErrorStatus,
} from "./errors/error-catalogue.js";

// Engine
export { search, type SearchOptions } from "./engine/search.js";
export { reduce } from "./engine/reduce.js";
export { initialSnapshot, hasResults, offerCount, failedSources, type SearchSnapshot, type InitialSnapshotOptions } from "./engine/snapshot.js";
export { StringMap } from "./engine/string-map.js";
export type { SearchEvent } from "./engine/events.js";
export type { SourceFailure } from "./engine/run-source.js";
export type { SourceProgress, SourceState } from "./errors/source-progress.js";
export { sourcesFor, type SearchSource } from "./engine/source.js";
export { defaultSourcePolicy, retrySchedule, type SourcePolicy } from "./engine/source-policy.js";
export { effectToObservable } from "./engine/effect-bridge.js";

// Views
export { modeAPage, type ModeAPage } from "./views/mode-a-page.js";
export {
  BEST_CENTAVOS_PER_MINUTE,
  DEFAULT_VIEW,
  SORT_KEYS,
  viewKey,
  type DirectionTimes,
  type ResultFilters,
  type ResultView,
  type SortKey,
  type TimeWindow,
} from "./query/result-view.js";
export { modeBResult, singleAirlineResult, type ModeBResult } from "./views/mode-b-result.js";
export { snapshotToEnvelope, type EnvelopeOptions, type SearchFailure, type SearchSuccess } from "./envelope/to-envelope.js";
export type { ComparisonView, FilterView, MetaView, PageView, PriceGroupView } from "./views/views.js";

// Request
export { parseSearchRequest, DEFAULT_PAGE_SIZE, type InvalidRequest, type ParsedRequest, type RequestContext } from "./request/request.js";
export type { RequestCompat } from "./request/request-legacy.js";
export { ConsultarBodySchema, PollRequestSchema, SearchRequestSchema } from "./request/request-schema.js";
export { todayInSaoPaulo } from "./request/request-dates.js";
export { isRelativeDate, resolveRelativeDate, withAbsoluteDates } from "./request/relative-date.js";
export { filtrosOf, FiltrosSchema, OrdenacaoSchema, readResultView, SORT_WIRE, VIEW_MESSAGES } from "./envelope/view-members.js";
export { wireRequestOf } from "./request/request-body.js";

// Envelope: answers we write
export {
  EnvelopeSchema,
  ErrorEnvelopeSchema,
  ModeAEnvelopeSchema,
  ModeBEnvelopeSchema,
  errorEnvelope,
  successEnvelope,
  type ErrorEnvelope,
  type FieldError,
  type ModeAEnvelope,
  type ModeBEnvelope,
  type Pagination,
  type SuccessEnvelope,
} from "./envelope/envelope.js";
export { ProgressoSchema, toWireProgress, type WireProgress } from "./envelope/progress.js";
export { toWireFlight, toWireMeta, toWireModeAGroup } from "./envelope/mode-a.js";
export { ModeAFlightSchema, ModeAResultGroupSchema, type ModeAFlight, type ModeAMeta, type ModeAResultGroup, type ModeASegment } from "./envelope/mode-a-schema.js";
export { toWireComparison, toWireModeBResult, toWireSingleAirlineOffer } from "./envelope/mode-b.js";
export { ModeBOfferSchema, ModeBSearchResultSchema, type ModeBOffer, type ModeBSearchResult } from "./envelope/mode-b-schema.js";

// Upstream: answers we read (tolerant)
export {
  createOfferInterner,
  isPermissionMessage,
  readListEntries,
  readUpstreamAnswer,
  upstreamFailure,
  type EntryOffers,
  type OfferInterner,
  type OfferListMember,
  type UpstreamAnswer,
  type ReadContext,
} from "./upstream/index.js";

// Price calendar: day searches around a date, composed
export { planCalendar, askOrder, MAX_FLEXIBLE_DAYS, MAX_FLEXIBLE_RETURN_DAYS, MAX_GRID_DAYS, type CalendarPlan, type FlexibleDays } from "./calendar/calendar-plan.js";
export { dayPrices, type DayCashPrice, type DayMilesPrice, type DayPrices } from "./calendar/day-prices.js";
export {
  calendarOf,
  dayOfSnapshot,
  daySettled,
  initialCalendar,
  reduceCalendar,
  waitingDay,
  type CalendarDay,
  type CalendarDayState,
  type CalendarEvent,
  type CalendarSnapshot,
} from "./calendar/calendar-snapshot.js";
export { calendar, DAY_NOT_SEARCHED, DAY_STOPPED, DEFAULT_CALENDAR_CONCURRENCY, type CalendarOptions, type DaySearch } from "./calendar/calendar.js";
export {
  CALENDAR_MESSAGES,
  CalendarBodySchema,
  CalendarPollSchema,
  CalendarRequestSchema,
  DiasFlexiveisSchema,
  DiasFlexiveisVoltaSchema,
  parseCalendarRequest,
  type ParsedCalendarRequest,
} from "./calendar/calendar-request.js";
export {
  applyCalendarChange,
  CalendarAirlineSchema,
  CalendarChangeSchema,
  CalendarDaySchema,
  CalendarEnvelopeSchema,
  CalendarProgressSchema,
  calendarToEnvelope,
  toWireCalendarDay,
  type CalendarChange,
  type CalendarEnvelope,
  type CalendarEnvelopeOptions,
  type WireCalendarDay,
} from "./calendar/calendar-envelope.js";

// Price watches ("avise-me quando baixar"): the request, the rule, the wire
export { CABINS, cabinOf, dayPricesByCabin, type Cabin } from "./alerts/alert-cabin.js";
export { decideLow, type LowDecision, type LowState } from "./alerts/alert-rule.js";
export {
  ALERT_KIND_WIRE,
  ALERT_MESSAGES,
  AlertRequestSchema,
  MAX_ALERT_FLEXIBLE_DAYS,
  parseAlertRequest,
  type AlertKind,
  type AlertSpec,
  type AlertWindow,
} from "./alerts/alert-request.js";
export {
  AlertEnvelopeSchema,
  AlertEventDataSchema,
  AlertEventSchema,
  AlertSchema,
  DeliveryEnvelopeSchema,
  DeliverySchema,
  listEnvelope,
  WebhookSecretEnvelopeSchema,
  WebhookSecretSchema,
  type AlertEnvelope,
  type AlertEvent,
  type DeliveryEnvelope,
  type WebhookSecretEnvelope,
  type WireAlert,
  type WireDelivery,
} from "./alerts/alert-wire.js";
export { addDays, epochDay } from "./request/request-dates.js";
