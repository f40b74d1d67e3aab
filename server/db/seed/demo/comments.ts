/**
 * Demo comments: readers of the demo accounts discussing a few Free and Pro items, with replies.
 * Each author can read the item (a Pro item is discussed by Pro readers and staff only), the
 * times are fixed (after the item was published) so the seed is reproducible, and a comment is
 * identified by its item, author and time, which keeps the seed idempotent.
 */
import type { DemoAccount } from "../accounts.ts";

export interface DemoComment {
  /** A name for replies to point at (not stored). */
  key: string;
  contentSlug: string;
  author: DemoAccount["key"];
  createdAt: string;
  /** The `key` of the comment this one answers. */
  replyTo?: string;
  body: string;
}

export const DEMO_COMMENTS: readonly DemoComment[] = [
  // Free: The Anatomy of a Good Prompt
  {
    key: "anatomy-definition-of-done",
    contentSlug: "anatomy-of-a-good-prompt",
    author: "free",
    createdAt: "2026-02-04T08:15:00.000Z",
    body: 'The "definition of done" part was the missing piece for me. I added "answer in at most five bullet points, each under 20 words" to my weekly summary prompt and stopped getting essays back.',
  },
  {
    key: "anatomy-role-question",
    contentSlug: "anatomy-of-a-good-prompt",
    author: "basic",
    createdAt: "2026-02-05T12:40:00.000Z",
    body: 'Does the role still matter with newer models? I dropped "You are an experienced editor" from a prompt and could not see a difference in the output.',
  },
  {
    key: "anatomy-role-answer",
    contentSlug: "anatomy-of-a-good-prompt",
    author: "manager",
    createdAt: "2026-02-05T15:05:00.000Z",
    replyTo: "anatomy-role-question",
    body: 'For general writing tasks it often makes little difference now. It helps most when the role carries context the model cannot guess, such as "You review contracts for a UK public-sector buyer". A role that only says "expert" adds nothing, so leaving it out is fine.',
  },
  // Free: Few-Shot Examples That Actually Work
  {
    key: "few-shot-ambiguous",
    contentSlug: "few-shot-examples-that-work",
    author: "pro",
    createdAt: "2026-02-07T10:20:00.000Z",
    body: 'Including one ambiguous example with the label we actually want ("needs human review") cut our misrouted tickets noticeably. Before that, the model forced every message into one of the clear categories.',
  },
  {
    key: "few-shot-order",
    contentSlug: "few-shot-examples-that-work",
    author: "free",
    createdAt: "2026-02-09T17:45:00.000Z",
    body: 'Worth adding: shuffle the order of your examples now and then while testing. Ours always ended with a "positive" example and the model leaned positive on borderline inputs until we mixed them up.',
  },
  // Free: Getting Structured Output: JSON You Can Trust
  {
    key: "json-validate",
    contentSlug: "structured-output-with-json",
    author: "enterprise",
    createdAt: "2026-02-11T09:30:00.000Z",
    body: "We validate every response against the same zod schema we describe in the prompt, and on a failure we retry once with the validation error appended. That single retry fixes almost all of the malformed answers we see.",
  },
  // Pro: Human Oversight Patterns That Do Not Become Rubber Stamps
  {
    key: "oversight-approval-rate",
    contentSlug: "human-oversight-patterns",
    author: "pro",
    createdAt: "2026-04-16T11:00:00.000Z",
    body: '"Approval rates near 100%" hit home. Our reviewers approved 98% of drafted replies in under ten seconds each. We now show the original customer message next to the draft and the rate dropped to 91%, which is probably closer to the truth.',
  },
  {
    key: "oversight-sampling",
    contentSlug: "human-oversight-patterns",
    author: "enterprise",
    createdAt: "2026-04-17T14:25:00.000Z",
    body: 'How large a sample do you recommend for the "AI decides, human samples" pattern? We audit 2% of decisions a week and I am not sure that would catch a slow drift.',
  },
  {
    key: "oversight-sampling-answer",
    contentSlug: "human-oversight-patterns",
    author: "manager",
    createdAt: "2026-04-17T16:50:00.000Z",
    replyTo: "oversight-sampling",
    body: "A flat percentage matters less than a fixed number per segment. Sample a set count from each category or risk level every week, so rare but important cases are not drowned out, and track the error rate over time so drift shows up as a trend.",
  },
  // Pro: Building a Support Triage Bot with Webhooks
  {
    key: "triage-idempotency",
    contentSlug: "building-a-triage-bot-with-webhooks",
    author: "manager",
    createdAt: "2026-04-22T10:10:00.000Z",
    body: "One thing to add to the webhook handler: store the delivery id and ignore repeats. Our help desk resends on any timeout, and without that check some tickets were labelled twice.",
  },
];
