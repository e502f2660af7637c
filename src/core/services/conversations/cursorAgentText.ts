/**
 * Importer for Cursor's older agent transcripts, `agent-transcripts/<id>.txt`: the same
 * conversation as the JSONL form (cursorAgent.ts), as text. A `user:` line starts a prompt (the
 * `<timestamp>` preamble and `<user_query>` as in the JSONL form), `A:` or `assistant:` the
 * agent's part, in which `[Thinking] …` lines are its reasoning, `[Tool call] Name` opens a call
 * whose `  key: value` lines are its input, and `[Tool result] Name` opens its output, which runs
 * to the next marker and is dropped.
 * Written from the tests of public Cursor transcript readers (parsers of `user:\n<user_query>` /
 * `A:` / `[Tool call]` / `[Tool result]` text, read in 2026-11); content of the fixture invented.
 */
import type { Conversation, Importer, Turn } from '../../model/conversation';
import { conversationIdFromPath } from './conversationId';
import { cursorToolLine, promptTurn } from './cursorAgent';
import { addToolInOrder, cleanText, countSkip, emptyConversation, finishConversation, trimBlankLines } from './importSupport';

const USER_HEADER = /^user:\s*$/;
const AGENT_HEADER = /^(?:A|assistant):\s*$/;
const TOOL_CALL = /^\[Tool call\]\s*(.*)$/;
const TOOL_RESULT = /^\[Tool result\]/;
const THINKING = /^\[Thinking\]/;
const PARAMETER = /^ {2}([\w.-]+): ?(.*)$/;

function detect(fileName: string, head: string): number {
  if (!/^user:\s*$/m.test(head) || !head.includes('<user_query>')) return 0;
  return /[/\\]agent-transcripts[/\\]/.test(fileName) ? 0.95 : 0.85;
}

function parse(rawText: string, sourcePath: string): Conversation {
  const skipped: Record<string, number> = {};
  const conv = emptyConversation(conversationIdFromPath(sourcePath), 'cursor', sourcePath);
  /** What the current section is: a prompt's lines, the agent's text, a call's input, a result. */
  let section: 'prompt' | 'agent' | 'call' | 'result' | undefined;
  let prompt: string[] = [];
  let agent: Turn | undefined;
  let call: { name: string; input: Record<string, string> } | undefined;
  const endCall = (): void => {
    if (call && agent) agent = addToolInOrder(conv.turns, agent, cursorToolLine(call.name, call.input));
    call = undefined;
  };
  const endPrompt = (): void => {
    if (section !== 'prompt') return;
    const turn = promptTurn(prompt.join('\n'), skipped);
    if (turn) {
      conv.turns.push(turn);
      agent = undefined;
    }
    prompt = [];
  };
  const agentTurn = (): Turn => {
    if (!agent) {
      agent = { role: 'assistant', text: '' };
      conv.turns.push(agent);
    }
    return agent;
  };
  for (const line of cleanText(rawText).split('\n')) {
    if (USER_HEADER.test(line)) {
      endCall();
      endPrompt();
      section = 'prompt';
    } else if (AGENT_HEADER.test(line)) {
      endCall();
      endPrompt();
      agentTurn();
      section = 'agent';
    } else if (section === 'prompt') {
      prompt.push(line);
    } else if (section === undefined) {
      if (line.trim() !== '') countSkip(skipped, 'unknown');
    } else if (TOOL_CALL.test(line)) {
      endCall();
      agentTurn();
      call = { name: TOOL_CALL.exec(line)![1].trim().split(/\s/)[0] || 'tool', input: {} };
      section = 'call';
    } else if (TOOL_RESULT.test(line)) {
      endCall();
      countSkip(skipped, 'tool-result');
      section = 'result';
    } else if (THINKING.test(line)) {
      endCall();
      countSkip(skipped, 'thinking');
      section = 'agent';
    } else if (section === 'call' && PARAMETER.test(line)) {
      const [, key, value] = PARAMETER.exec(line)!;
      call!.input[key] = value;
    } else if (section === 'result') {
      // Tool output: never part of the transcript.
    } else {
      endCall();
      section = 'agent';
      const turn = agentTurn();
      turn.text += `${line}\n`;
    }
  }
  endCall();
  endPrompt();
  for (const turn of conv.turns) turn.text = trimBlankLines(turn.text);
  return finishConversation(conv, skipped);
}

/** The importer for Cursor's older text agent transcripts. */
export const cursorAgentText: Importer = { format: 'cursor', label: 'Cursor agent transcript (text)', detect, parse };
