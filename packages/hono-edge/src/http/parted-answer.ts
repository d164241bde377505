/**
 * Answers whose body is a few byte arrays sent one after another, never joined into one: a polling answer is the
 * same written envelope for every request of a page but for its `RequestId`, so the entry that sends it can write
 * the shared bytes before the id, the id, and the shared bytes after it, instead of copying some 18 KB into a new
 * array per request (the largest cost of a cached poll on Node after the framework itself).
 *
 * Only an entry that says so writes them (`writesPartedAnswers`: the Node entry, `serveNode`); everywhere else the
 * routes answer one array as before. A parted answer is still a whole `Response`: whatever reads its body
 * (a middleware copying the answer, `text()`, `clone()`) gets the chunks joined, once.
 */

/** The mark an entry leaves on a request's `env` when it writes parted answers itself (see {@link partsOf}). */
export const WRITES_PARTED_ANSWERS: unique symbol = Symbol.for("voar.writesPartedAnswers");

/** Whether the entry that passed this `env` (Hono's `c.env`) writes parted answers itself. */
export const writesPartedAnswers = (env: unknown): boolean =>
  typeof env === "object" && env !== null && (env as { [WRITES_PARTED_ANSWERS]?: unknown })[WRITES_PARTED_ANSWERS] === true;

/** What an entry writes for a parted answer. */
export interface AnswerParts {
  readonly status: number;
  /** The body, in order; their lengths add up to `length`. */
  readonly chunks: readonly Uint8Array[];
  readonly length: number;
  /**
   * The headers given to the answer, as given; `undefined` once anything read the answer's `headers` (a middleware
   * may have changed them there: the entry then reads them from the answer).
   */
  readonly headers: Record<string, string> | undefined;
}

const PARTS = Symbol("voar.answerParts");

interface Parted {
  [PARTS]: { status: number; chunks: readonly Uint8Array[]; length: number; headers: Record<string, string> | undefined };
}

/** The chunks of a parted answer, or `undefined` for any other answer. */
export const partsOf = (answer: Response): AnswerParts | undefined => (answer as Partial<Parted>)[PARTS];

/** The chunks in one new array. */
export const joinChunks = (chunks: readonly Uint8Array[], length: number): Uint8Array<ArrayBuffer> => {
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
};

type PartedClass = new (chunks: readonly Uint8Array[], length: number, status: number, headers: Record<string, string>) => Response;

/**
 * One class per `Response` class: built on the global `Response` in force when the answer is made, so that on Node
 * it is @hono/node-server's light `Response` (which builds no Web `Response` until something reads it).
 */
const classes = new WeakMap<typeof Response, PartedClass>();

const partedClass = (Base: typeof Response): PartedClass => {
  let Class = classes.get(Base);
  if (Class) return Class;
  Class = class PartedResponse extends Base implements Parted {
    [PARTS]: Parted[typeof PARTS];
    #joined: Response | undefined;

    constructor(chunks: readonly Uint8Array[], length: number, status: number, headers: Record<string, string>) {
      super(null, { status, headers });
      this[PARTS] = { status, chunks, length, headers };
    }

    /** The same answer as one array (its headers as they are now): what a reader of the body gets. */
    #whole(): Response {
      const { chunks, length, status } = this[PARTS];
      return (this.#joined ??= new Base(joinChunks(chunks, length), { status, headers: this.headers }));
    }

    override get headers(): Headers {
      this[PARTS].headers = undefined;
      return super.headers;
    }
    override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
      return this.#whole().body;
    }
    override get bodyUsed(): boolean {
      return this.#joined?.bodyUsed ?? false;
    }
    override arrayBuffer(): Promise<ArrayBuffer> {
      return this.#whole().arrayBuffer();
    }
    override blob(): Promise<Blob> {
      return this.#whole().blob();
    }
    override bytes(): Promise<Uint8Array<ArrayBuffer>> {
      return this.#whole().arrayBuffer().then((b) => new Uint8Array(b));
    }
    override formData(): Promise<FormData> {
      return this.#whole().formData();
    }
    override json(): Promise<unknown> {
      return this.#whole().json();
    }
    override text(): Promise<string> {
      return this.#whole().text();
    }
    override clone(): Response {
      return this.#whole().clone();
    }
  };
  classes.set(Base, Class);
  return Class;
};

/** An answer whose body is `chunks` in order (see the module): a whole `Response` that an entry may send in parts. */
export const partedResponse = (chunks: readonly Uint8Array[], status: number, headers: Record<string, string>): Response => {
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  return new (partedClass(globalThis.Response))(chunks, length, status, headers);
};
