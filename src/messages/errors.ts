import type { EngineErrorCode } from '../engine/engine-error.js';

/** The sentence for an error the pure engine raised (src/errors.ts translates it). */
export function engineErrorText(code: EngineErrorCode, details: Readonly<Record<string, unknown>>): string {
  const id = typeof details.id === 'string' ? JSON.stringify(details.id) : 'an agent';
  switch (code) {
    case 'duplicate-agent-id':
      return `agent ${id} is listed twice: give each agent once`;
    case 'same-agent-pair':
      return `agent ${id} was paired with itself`;
  }
}

export const errorMessages = {
  debugOption: 'on an internal error, print its stack trace',
  debugHint: 'this is a bug in airspace-hooks; run the command again with --debug to see where it happened',
} as const;
