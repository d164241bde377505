import type { SearchSnapshot } from "@voar/core";
import { SearchFeed, type SearchFeedOptions } from "./search-feed.js";
import type { Logger } from "../logging/logger.js";
import type { ServiceMetrics } from "../telemetry/service-metrics.js";
import type { SearchRecord, SessionStore } from "./session-store.js";

/** The feeds of an instance's searches, one per search followed by at least one stream. */
export class SearchFeeds {
  private readonly feeds = new Map<string, SearchFeed>();

  private readonly watch: Pick<SearchFeedOptions, "fallbackMs" | "onStall">;

  /**
   * A search that advances without its announcement (pub/sub lost in a failover, a reconnection, a slot moved): its
   * streams read it on a timer (`o.watchFallbackMs`), the stall is logged (`stream.stalled`) and counted, and the
   * search watched again.
   */
  constructor(
    private readonly store: SessionStore,
    o: { readonly watchFallbackMs?: number | undefined; readonly logger?: Logger | undefined; readonly metrics?: Pick<ServiceMetrics, "watchStalled"> | undefined } = {},
  ) {
    this.watch = {
      fallbackMs: o.watchFallbackMs,
      onStall: (searchId, missed) => {
        o.logger?.log({ level: "warn", msg: "stream.stalled", searchId, missedVersions: missed });
        o.metrics?.watchStalled();
      },
    };
  }

  /** The open feed of a search, or a new one (`latest` reads its latest snapshot when it starts). */
  of(record: SearchRecord, latest: () => Promise<SearchSnapshot>): SearchFeed {
    const open = this.feeds.get(record.id);
    if (open && !open.closed) return open;
    const feed: SearchFeed = new SearchFeed({
      store: this.store,
      record,
      latest,
      onClosed: () => void (this.feeds.get(record.id) === feed && this.feeds.delete(record.id)),
      fallbackMs: this.watch.fallbackMs,
      onStall: this.watch.onStall,
    });
    this.feeds.set(record.id, feed);
    return feed;
  }
}
