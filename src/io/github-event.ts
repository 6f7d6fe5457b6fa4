import { readTextOrUndefined } from './fs.js';

/**
 * The pull request a GitHub Actions run is for, from the event's payload: the runner writes the
 * webhook payload to the file GITHUB_EVENT_PATH names, and for `pull_request` (and
 * `pull_request_target`) it holds `pull_request.base.sha` and `.ref`
 * (https://docs.github.com/en/actions/writing-workflows/choosing-when-your-workflow-runs/events-that-trigger-workflows#pull_request,
 * https://docs.github.com/en/webhooks/webhook-events-and-payloads#pull_request).
 * Undefined for any other event (a push), or when the file is absent or not such a payload.
 */
export interface PullRequestEvent {
  number: number;
  /** The base branch's commit when the event fired, and the branch's name. */
  base: { sha: string; ref: string };
}

const PULL_REQUEST_EVENTS = ['pull_request', 'pull_request_target'];

export function pullRequestEvent(env: Record<string, string | undefined>): PullRequestEvent | undefined {
  const file = env.GITHUB_EVENT_PATH;
  if (!file || !PULL_REQUEST_EVENTS.includes(env.GITHUB_EVENT_NAME ?? '')) return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(readTextOrUndefined(file) ?? 'null');
  } catch {
    return undefined;
  }
  const pull = (payload as { pull_request?: { number?: unknown; base?: { sha?: unknown; ref?: unknown } } } | null)?.pull_request;
  const sha = pull?.base?.sha;
  const ref = pull?.base?.ref;
  if (typeof sha !== 'string' || !/^[0-9a-f]{40,64}$/.test(sha) || typeof ref !== 'string') return undefined;
  return { number: typeof pull!.number === 'number' ? pull!.number : 0, base: { sha, ref } };
}
