import { isAbsolute } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { SubscribeRequestSchema, UnsubscribeRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { mcpMessages } from '../messages/agent-views.js';
import type { AirspaceReport } from '../report/check-report.js';
import type { PeerDiffQuery, PeerDiffReport } from '../report/peer-diff-report.js';
import { sanitizeJson, sanitizeText } from '../report/sanitize-text.js';
import { summarizePeerDiff, summarizeReport } from './summarize.js';

/**
 * The MCP server: the same runs as the CLI commands, exposed as tools an agent calls inside its
 * loop. The runners are handed in by the CLI (this module knows no git and no command), so every
 * tool is exactly the command a person would run. Arguments are validated by the schemas below
 * (unknown keys refused); any error a runner throws becomes an `isError` tool result with its
 * one-line message (the SDK's CallTool handler catches it), never a crash of the server.
 */
export interface ToolRunners {
  /** `signal`: the client cancelled the request (the run stops and kills its git processes). */
  readonly check: (cwd: string, options: { fetch: boolean; signal: AbortSignal }) => Promise<AirspaceReport>;
  readonly scan: (cwd: string, options: { agents: readonly string[]; fetch: boolean; signal: AbortSignal }) => Promise<AirspaceReport>;
  readonly intent: (cwd: string, action: 'add' | 'list' | 'clear', paths: readonly string[]) => Promise<readonly string[]>;
  readonly inbox: (cwd: string, ack: boolean) => Promise<{ readonly messages: readonly unknown[] }>;
  readonly peerDiff: (cwd: string, options: PeerDiffQuery) => Promise<PeerDiffReport>;
}

/** The session's advisories: pushed by the resident's subscription, or from a `check` when nothing came yet. */
export interface SessionAdvisories {
  readonly agent: string | null;
  readonly at: number;
  readonly source: 'resident' | 'check';
  readonly advisories: readonly {
    readonly a: string;
    readonly b: string;
    readonly level: 'TA' | 'RA';
    readonly risk: number;
    readonly files: readonly string[];
  }[];
}

/** Handed in by the CLI, like the runners: the MCP server knows no resident and no git. */
export interface AdvisoryFeed {
  /** Calls `onChange` after every change until `signal` aborts (the session closed). */
  readonly follow: (onChange: (advisories: SessionAdvisories) => void, signal: AbortSignal) => void;
  readonly now: (signal: AbortSignal) => Promise<SessionAdvisories>;
}

export const ADVISORIES_URI = 'airspace://advisories';

const P = mcpMessages.params;
const path = z.string().min(1).max(4096);
const cwd = path.refine(isAbsolute, mcpMessages.cwdNotAbsolute).optional().describe(P.cwd);
const paths = z.array(path).max(500);
const count = (max: number) => z.number().int().min(0).max(max);

export function createMcpServer(
  runners: ToolRunners,
  options: { version: string; defaultCwd: string; peerDiffDefaults: Omit<PeerDiffQuery, 'peer' | 'file'>; advisories?: AdvisoryFeed },
): McpServer {
  const server = new McpServer(
    { name: 'airspace-hooks', version: options.version },
    { instructions: mcpMessages.serverInstructions, capabilities: { logging: {}, resources: { subscribe: true } } },
  );
  if (options.advisories) pushAdvisories(server, options.advisories);
  const at = (input: { cwd?: string | undefined }) => input.cwd ?? options.defaultCwd;
  const T = mcpMessages.tools;
  const readOnly = { readOnlyHint: true, openWorldHint: false };

  server.registerTool(
    'check',
    { description: T.check, inputSchema: z.strictObject({ cwd, fetch: z.boolean().optional().describe(P.fetch) }), annotations: { openWorldHint: false } },
    async (input, extra) => reportResult(summarizeReport, await runners.check(at(input), { fetch: input.fetch ?? false, signal: extra.signal })),
  );
  server.registerTool(
    'scan',
    {
      description: T.scan,
      inputSchema: z.strictObject({
        cwd,
        agents: z.array(z.string().min(3).max(1024)).max(200).optional().describe(P.agents),
        fetch: z.boolean().optional().describe(P.fetch),
      }),
      annotations: { openWorldHint: false },
    },
    async (input, extra) =>
      reportResult(summarizeReport, await runners.scan(at(input), { agents: input.agents ?? [], fetch: input.fetch ?? false, signal: extra.signal })),
  );
  server.registerTool(
    'intent_add',
    {
      description: T.intent_add,
      inputSchema: z.strictObject({ cwd, paths: paths.min(1).describe(P.paths) }),
      annotations: { idempotentHint: true, openWorldHint: false },
    },
    async (input) => intentResult(await runners.intent(at(input), 'add', input.paths)),
  );
  server.registerTool(
    'intent_clear',
    {
      description: T.intent_clear,
      inputSchema: z.strictObject({ cwd, paths: paths.optional().describe(P.paths) }),
      annotations: { idempotentHint: true, openWorldHint: false },
    },
    async (input) => intentResult(await runners.intent(at(input), 'clear', input.paths ?? [])),
  );
  server.registerTool('intent_list', { description: T.intent_list, inputSchema: z.strictObject({ cwd }), annotations: readOnly }, async (input) =>
    intentResult(await runners.intent(at(input), 'list', [])),
  );
  server.registerTool(
    'inbox',
    { description: T.inbox, inputSchema: z.strictObject({ cwd, ack: z.boolean().optional().describe(P.ack) }), annotations: { openWorldHint: false } },
    async (input) => {
      const inbox = await runners.inbox(at(input), input.ack ?? false);
      return jsonResult(mcpMessages.inboxSummary(inbox.messages.length), inbox);
    },
  );
  server.registerTool(
    'peer_diff',
    {
      description: T.peer_diff,
      inputSchema: z.strictObject({
        cwd,
        peer: z.string().min(1).max(1024).describe(P.peer),
        file: path.optional().describe(P.file),
        near: count(100_000).optional().describe(P.near),
        context: count(1_000).optional().describe(P.context),
        maxHunks: count(1_000).optional().describe(P.maxHunks),
        maxBytes: count(1024 * 1024)
          .optional()
          .describe(P.maxBytes),
      }),
      annotations: readOnly,
    },
    async (input) => {
      const d = options.peerDiffDefaults;
      const report = await runners.peerDiff(at(input), {
        peer: input.peer,
        ...(input.file !== undefined ? { file: input.file } : {}),
        near: input.near ?? d.near,
        context: input.context ?? d.context,
        maxHunks: input.maxHunks ?? d.maxHunks,
        maxBytes: input.maxBytes ?? d.maxBytes,
      });
      return reportResult(summarizePeerDiff, report);
    },
  );
  return server;
}

/**
 * The session's advisories as a resource (docs/decisions/resident.md, "MCP notifications"): once the
 * client is initialized the feed follows the resident, and each change sends
 * `notifications/resources/updated` (when the client subscribed to the resource) and a
 * `notifications/message` with the summary and the advisories — both cleaned as every tool result.
 * `McpServer` answers no `resources/subscribe`, so the low-level server does.
 */
function pushAdvisories(server: McpServer, feed: AdvisoryFeed): void {
  let latest: SessionAdvisories | null = null;
  const subscribed = new Set<string>();
  const session = new AbortController();
  server.registerResource('advisories', ADVISORIES_URI, { description: mcpMessages.advisoriesResource, mimeType: 'application/json' }, async (_uri, extra) => {
    const now = latest ?? (await feed.now(extra.signal));
    return { contents: [{ uri: ADVISORIES_URI, mimeType: 'application/json', text: JSON.stringify(sanitizeJson(now)) }] };
  });
  server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    subscribed.add(request.params.uri);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
  const changed = async (advisories: SessionAdvisories) => {
    latest = advisories;
    if (subscribed.has(ADVISORIES_URI)) await server.server.sendResourceUpdated({ uri: ADVISORIES_URI });
    const ra = advisories.advisories.some((advisory) => advisory.level === 'RA');
    const summary = mcpMessages.advisoriesChanged(advisories.agent ?? '?', advisories.advisories.length);
    await server.sendLoggingMessage({
      level: ra ? 'warning' : 'notice',
      logger: 'airspace-hooks',
      data: sanitizeJson({ summary: sanitizeText(summary, { maxLength: 4000 }), ...advisories }),
    });
  };
  server.server.oninitialized = () => feed.follow((advisories) => void changed(advisories).catch(() => undefined), session.signal);
  server.server.onclose = () => session.abort();
}

/**
 * Serves until stdin ends. Resolves with the error that closed the stream, if one did: the SDK's
 * stdio transport refuses a message over its 10 MB buffer by closing, and a client would only see
 * the server go away — so the reason goes to stderr in one line and the command exits non-zero.
 */
export async function serveStdio(server: McpServer, onStreamError: (line: string) => void = () => undefined): Promise<Error | null> {
  const transport = new StdioServerTransport();
  let failure: Error | null = null;
  server.server.onerror = (error) => {
    if (/exceeded maximum size/i.test(error.message)) {
      failure = error;
      onStreamError(mcpMessages.requestTooLarge);
    }
  };
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', () => void server.close());
  });
  await server.connect(transport);
  await closed;
  return failure;
}

function reportResult<R extends object>(summarize: (report: R) => string, report: R): CallToolResult {
  return jsonResult(summarize(report), report);
}

function intentResult(intent: readonly string[]): CallToolResult {
  return jsonResult(mcpMessages.intentSummary(intent), { intent });
}

/**
 * A short text first, then the data: as JSON text (for clients that read only text) and structured.
 * Both carry peer text (beacon notes, branch and file names) to an agent, which reads and may quote
 * it: every string is cleaned by the one rule of every output path (src/report/sanitize-text.ts).
 */
function jsonResult(summary: string, data: object): CallToolResult {
  const clean = sanitizeJson(data) as Record<string, unknown>;
  return {
    content: [
      { type: 'text', text: sanitizeText(summary, { maxLength: 4000, allowNewlines: true }) },
      { type: 'text', text: JSON.stringify(clean) },
    ],
    structuredContent: clean,
  };
}
