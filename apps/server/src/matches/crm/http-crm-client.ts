import { type CrmClient, CrmRefusedError, CrmTransientError } from './crm-client.js';

export const MATCH_ID_PLACEHOLDER = '{matchId}';

export type CrmAuth = { kind: 'bearer'; token: string } | { kind: 'basic'; user: string; password: string };

export interface HttpCrmClientOptions {
  /** URL with `{matchId}` where the ID goes. */
  url: string;
  auth: CrmAuth | undefined;
  timeoutMs: number;
}

/** A CRM that answers `GET <url with the ID>` with the match as JSON and 404 for an unknown ID. */
export class HttpCrmClient implements CrmClient {
  private readonly headers: Record<string, string>;

  constructor(private readonly options: HttpCrmClientOptions) {
    this.headers = { accept: 'application/json', ...authorization(options.auth) };
  }

  async fetchRecord(matchId: string): Promise<unknown> {
    const url = this.options.url.replaceAll(MATCH_ID_PLACEHOLDER, encodeURIComponent(matchId));
    let response: Response;
    try {
      response = await fetch(url, {
        headers: this.headers,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      const reason =
        (error as Error).name === 'TimeoutError'
          ? `no answer within ${this.options.timeoutMs} ms`
          : `${(error as Error).message} (${String((error as Error).cause ?? '')})`;
      throw new CrmTransientError(`GET ${withoutQuery(url)}: ${reason}`, { cause: error });
    }
    if (response.status === 404) {
      await response.body?.cancel();
      return undefined;
    }
    if (!response.ok) {
      const body = (await response.text().catch(() => '')).slice(0, 200);
      const problem = `GET ${withoutQuery(url)} answered ${response.status}: ${body}`;
      throw response.status >= 500 ? new CrmTransientError(problem) : new CrmRefusedError(problem);
    }
    try {
      return await response.json();
    } catch (error) {
      // A proxy's error page or a cut-off answer: another attempt may get the real one.
      throw new CrmTransientError(
        `GET ${withoutQuery(url)}: answer is not JSON (${(error as Error).message})`,
      );
    }
  }
}

function authorization(auth: CrmAuth | undefined): Record<string, string> {
  if (!auth) return {};
  if (auth.kind === 'bearer') return { authorization: `Bearer ${auth.token}` };
  return { authorization: `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}` };
}

/** Some CRMs take an API key as query parameter: it must not reach the logs. */
function withoutQuery(url: string): string {
  return url.split('?')[0] ?? url;
}
