// occurrence.ts — one triggered occurrence: its actor and repository, and what it made (activity events,
// issue events, deliveries), with helpers to record a feed event and to send the matching webhook.
import type { World } from "./ctx.ts";
import { dispatch, envelope, record } from "./dispatch.ts";
import type { Obj } from "./present.ts";
import { fullName, type Repo, type User } from "./store.ts";

export const ZERO = "0".repeat(40);

export type Get = (k: string) => string | undefined;

export class Occurrence {
  readonly made: Obj = {};
  readonly deliveries: string[] = [];
  readonly events: string[] = [];
  readonly issueEvents: number[] = [];
  readonly now = new Date();
  constructor(readonly w: World, readonly actor: User, readonly repo: Repo, readonly s: Get) {}
  get full(): string { return fullName(this.repo); }
  activity(type: string, payload: Obj): void { this.events.push(record(this.w, type, this.actor.login, this.repo, payload, this.now).id); }
  hook(event: string, fields: Obj): void {
    this.deliveries.push(...dispatch(this.w, event, { repo: this.repo }, envelope(this.w, this.actor.login, this.repo, fields)));
  }
  both(event: string, type: string, fields: Obj): void { this.activity(type, fields); this.hook(event, fields); }
  id(kind: string): number { return this.w.store.next(kind, 9000); }
}
