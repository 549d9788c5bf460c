// The official MCP conformance suite (@modelcontextprotocol/conformance,
// pinned) as kb's tests run it: against kb through the test-only bridge on
// stdio (tests/integrations/mcp-conformance.test.ts) and directly against
// `kb mcp --http` (tests/integrations/mcp-http-conformance.test.ts). Its
// server scenarios speak the legacy revisions (2025-06-18, 2025-11-25)
// through the SDK 1.x client; it has none for 2026-07-28 yet.
//
// Every scenario that applies to kb passes. The others test the suite's own
// reference server: its fixture tools, prompts and resources (`test_*`,
// `test://...`), which kb does not have, or capabilities kb does not declare
// under the legacy revisions (logging, resource subscriptions,
// completions). Each of those is held to the answer kb gives
// (tests/data/conformance-baseline.yml is the suite's own baseline of
// them), so that a change either way is seen. The suite needs
// fs.globSync (Node.js 22 or later); it runs under Bun, which has it.
import { expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from '../e2e/harness.ts';

const SUITE = join(REPO, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const BUN = join(REPO, 'node_modules/.bin/bun');
const BASELINE = join(REPO, 'tests/data/conformance-baseline.yml');

/** The scenarios that apply to kb: each passes. */
export const APPLICABLE = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'prompts-list', 'server-sse-multiple-streams', 'dns-rebinding-protection'];

/** The others, each with what kb answers (its error message). */
const NOT_APPLICABLE: Record<string, RegExp> = {
  'logging-set-level': /^MCP error -32601: method not found: logging\/setLevel$/,
  'completion-complete': /^MCP error -32601: method not found: completion\/complete$/,
  'resources-subscribe': /^MCP error -32601: method not found: resources\/subscribe$/,
  'resources-unsubscribe': /^MCP error -32601: method not found: resources\/subscribe$/,
  'tools-call-with-logging': /^MCP error -32601: method not found: logging\/setLevel$/,
  'resources-read-text': /^MCP error -32602: not a knowledge-base URI: test:\/\/static-text /,
  'resources-read-binary': /^MCP error -32602: not a knowledge-base URI: test:\/\/static-binary /,
  'resources-templates-read': /^MCP error -32602: not a knowledge-base URI: test:\/\/template\/123\/data /,
};
for (const s of ['simple-text', 'image', 'audio', 'embedded-resource', 'mixed-content', 'error', 'with-progress', 'sampling', 'elicitation']) NOT_APPLICABLE[`tools-call-${s}`] = /^MCP error -32602: unknown tool "test_[a-z_0-9]+"; the tools are "learn", "search"$/;
for (const s of ['elicitation-sep1034-defaults', 'elicitation-sep1330-enums']) NOT_APPLICABLE[s] = /^MCP error -32602: unknown tool "test_elicitation_sep\d+_[a-z]+"; the tools are "learn", "search"$/;
for (const s of ['simple', 'with-args', 'embedded-resource', 'with-image']) NOT_APPLICABLE[`prompts-get-${s}`] = /^MCP error -32602: unknown prompt "test_[a-z_]+"; the only prompt is "knowledge"$/;

/** The line kb writes on stderr for each request of a method it does not
 *  serve (Nothing silent). */
export const REFUSED = /^warning: kb mcp: line \d+: method not found: (logging\/setLevel|resources\/subscribe|completion\/complete)$/;

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

/** A run of the suite against a server: its exit status and output, and
 *  the checks of each scenario. */
export interface SuiteRun {
  status: number | null;
  stdout: string;
  results: Map<string, Check[]>;
}

/** Runs the suite against the server at `url` (asynchronously: a bridge may
 *  answer from this process), bounded in time. */
export async function runConformance(url: string): Promise<SuiteRun> {
  const out = mkdtempSync(join(tmpdir(), 'kb-conformance-'));
  try {
    const { status, stdout } = await runSuite(['server', '--url', url, '--expected-failures', BASELINE, '-o', out]);
    const results = new Map<string, Check[]>();
    for (const dir of readdirSync(out)) {
      const scenario = dir.replace(/^server-/, '').replace(/-\d{4}-\d\d-\d\dT.*$/, '');
      results.set(scenario, JSON.parse(readFileSync(join(out, dir, 'checks.json'), 'utf8')) as Check[]);
    }
    return { status, stdout, results };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The tests every run of the suite must pass: its baseline holds, every
 *  scenario that applies passes, and the others fail with kb's answer. */
export function suiteTests(suite: () => SuiteRun): void {
  test('the suite ran every active scenario, and its baseline holds (exit 0)', () => {
    const run = suite();
    expect({ status: run.status, tail: run.stdout.split('\n').slice(-4).join('\n') }).toEqual({ status: 0, tail: expect.any(String) });
    expect([...run.results.keys()].sort()).toEqual([...APPLICABLE, ...Object.keys(NOT_APPLICABLE)].sort());
  });

  test('every scenario that applies to kb passes, every check of it', () => {
    for (const scenario of APPLICABLE) {
      const checks = suite().results.get(scenario) ?? [];
      expect({ scenario, checks: checks.length > 0, failed: checks.filter((c) => c.status !== 'SUCCESS' && c.status !== 'INFO') }).toEqual({ scenario, checks: true, failed: [] });
    }
  });

  test("the others fail on the suite's fixtures and on capabilities kb does not declare, with kb's own answer", () => {
    for (const [scenario, answer] of Object.entries(NOT_APPLICABLE)) {
      const failed = (suite().results.get(scenario) ?? []).filter((c) => c.status === 'FAILURE');
      expect({ scenario, n: failed.length }).toEqual({ scenario, n: 1 });
      expect({ scenario, message: failed[0].errorMessage?.replace(/^Failed: /, '') }).toEqual({ scenario, message: expect.stringMatching(answer) });
    }
  });
}

/** The suite's run (its exit status and output), bounded in time. */
function runSuite(args: string[]): Promise<{ status: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(BUN, [SUITE, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stdout += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout });
    });
  });
}
