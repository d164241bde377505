/**
 * Answers in the shapes a real deployment of this API sends (see shared/recorded/README.md): the envelope
 * with `ExceptionErro`, `Info`, `JsonObjectErro`; errors as .NET exception objects with a `StackTrace`;
 * `Success: false` with HTTP 200. The texts are the project's own.
 */

/** The members every real envelope carries besides the spec's. */
const realExtras = { RequestId: null, Info: null, JsonObjectErro: null, AuxiliarResponse: null } as const;

/** Stack frames of the fake service, so that tests can tell one never reaches a client. */
export const FAKE_STACK_TRACE =
  "   at Voar.FakeUpstream.Consultas.Executar(Requisicao rq, CancellationToken ct) in /src/Fake/Consultas.cs:line 87\n" +
  "   at Voar.FakeUpstream.Controllers.ConsultaAereoController.Consultar(Requisicao rq) in /src/Fake/ConsultaAereoController.cs:line 31";

/** A serialized .NET exception as `ExErro` carries it. */
export const dotNetException = (message: string, stackTrace: string | null = FAKE_STACK_TRACE) => ({
  TargetSite: null,
  Message: message,
  Data: {},
  InnerException: null,
  HelpLink: null,
  Source: "Voar.FakeUpstream",
  HResult: -2146233088,
  StackTrace: stackTrace,
});

/** A refused search: HTTP 200, `Success: false`, the message in `MensagemErro`, `ExErro` and `ExceptionErro`. */
export const businessErrorBody = (message: string) => ({
  ...realExtras,
  Success: false,
  HasResult: false,
  ExceptionErro: { Message: message, InnerException: null, StackTrace: FAKE_STACK_TRACE },
  MensagemErro: message,
  ExErro: dotNetException(message, null),
  Data: [],
  Completed: true,
  TotalItens: 0,
});

/** An unhandled exception as an ASP.NET service writes it with a 5xx status. */
export const serverErrorBody = (status: number) => ({
  Message: "An error has occurred.",
  ExceptionMessage: `Falha simulada do fornecedor (HTTP ${status}).`,
  ExceptionType: "System.InvalidOperationException",
  StackTrace: FAKE_STACK_TRACE,
});

/** The 401 body of an ASP.NET service whose token is missing, unknown or expired. */
export const unauthorizedBody = { Message: "Authorization has been denied for this request." };

/** The 429 body of a rate-limited request. */
export const rateLimitedBody = { Message: "Limite de requisições excedido. Tente novamente mais tarde." };

/** OAuth2 error body of `POST /Token`. */
export const tokenErrorBody = (error: "invalid_request" | "invalid_grant" | "unsupported_grant_type", description: string) => ({
  error,
  error_description: description,
});
