// Prompt injection and agent control: text that tells the agent to ignore the user or its instructions, to hide what
// it does, to switch off safety, or to take another role. In a document's prose it is an instruction the agent reads;
// quoted in code or inline code it is mostly an example (a security lesson), so it counts for less there.
import type { LineRule } from './line-rule';

const inProse = { prose: 'high', 'doc-code': 'low', script: 'medium' } as const;

export const agentControlRules: LineRule[] = [
  {
    id: 'SC-PI-IGNORE-INSTRUCTIONS',
    category: 'prompt-injection',
    title: 'Tells the agent to ignore its instructions',
    why: 'A skill that tells the agent to disregard the user, system or earlier instructions takes control of it; remove the skill unless the sentence is a clearly marked example.',
    keywords: ['ignore', 'disregard', 'forget', 'override'],
    patterns: [
      /\boverride\b[^.\n]{0,20}\b(all|any|previous|prior|your|earlier)\b[^.\n]{0,20}\b(instructions|rules|guidelines)\b/i,
      /\b(ignore|disregard|forget)\b[^.\n]{0,40}\b(previous|prior|above|earlier|all|any|other|the user'?s?|system|developer|safety)\b[^.\n]{0,30}\b(instructions?|prompts?|rules|guidelines|messages?|directions|directives|policies)\b/i,
    ],
    severity: inProse,
  },
  {
    id: 'SC-PI-HIDE-FROM-USER',
    category: 'prompt-injection',
    title: 'Tells the agent to keep something from the user',
    why: 'Instructions to act without telling the user, or to hide an action, are how a skill makes the agent work against the person it serves; read what is hidden and remove the skill if it is not benign.',
    keywords: [
      'tell',
      'mention',
      'inform',
      'reveal',
      'notify',
      'silently',
      'secretly',
      'covertly',
      'quietly',
      'hide',
      'conceal',
    ],
    patterns: [
      /\b(do not|don't|never|without)\s+(tell|telling|inform|informing|mention|mentioning|reveal|revealing|notify|notifying|alert|alerting|show|showing)\b[^.\n]{0,60}\b(the )?(user|human|operator|anyone)\b/i,
      /\b(do not|don't|never)\s+(tell|mention|reveal|report|show|include)\b[^.\n]{0,60}\bin your (reply|answer|response|summary|output)\b/i,
      /\b(silently|secretly|covertly|quietly)\s+(\w+\s+)?(run|execute|send|upload|install|download|delete|modify|copy|post|exfiltrate|collect|forward|log|record|save|store)\b/i,
      /\b(run|execute|send|upload|install|download|delete|copy|post|exfiltrate|collect|forward|save|store)\b[^.\n]{0,30}\b(silently|secretly|covertly)\b/i,
      /\b(hide|conceal)\b[^.\n]{0,30}\b(this|these|the)\b[^.\n]{0,20}\b(actions?|steps?|commands?|output|requests?)\b[^.\n]{0,20}\bfrom\b[^.\n]{0,10}\b(the )?user\b/i,
    ],
    severity: inProse,
  },
  {
    id: 'SC-PI-DISABLE-SAFETY',
    // Documentation describes what bypasses a check more often than a skill asks for it: a step less in prose.
    category: 'prompt-injection',
    title: 'Tells the agent to switch off safety or confirmations',
    why: 'Disabling safety checks, sandboxing or confirmations removes the user from decisions they should make; a skill should never ask for it.',
    keywords: [
      'disable',
      'bypass',
      'turn off',
      'skip',
      'circumvent',
      'without asking',
      'without confirmation',
      'auto-approve',
    ],
    patterns: [
      /\b(disable|bypass|turn off|circumvent|switch off)\b[^.\n]{0,30}\b(safety|security (checks?|warnings?|prompts?)|guardrails?|sandbox(ing)?|permission (prompts?|checks?)|confirmations?|approvals?|content (filter|policy)|restrictions)\b/i,
      /\b(without|never)\s+(asking|requesting|waiting for)\b[^.\n]{0,25}\b(permission|confirmation|approval|consent)\b/i,
      /--dangerously-skip-permissions|--no-sandbox-for-agent|auto-approve all/i,
    ],
    unless: [
      /\b(does not|doesn't|do not|don't|never|cannot|can't|won't|must not|should not)\s+(disable|bypass|turn off|circumvent)\b/i,
    ],
    severity: { prose: 'medium', 'doc-code': 'low', script: 'medium' },
  },
  {
    id: 'SC-PI-ROLE-OVERRIDE',
    category: 'prompt-injection',
    title: 'Tries to give the agent another role',
    why: 'A skill that redefines who the agent is ("you are now…", "developer mode") is a jailbreak, not a task; remove it.',
    keywords: ['you are now', 'act as', ' mode', 'instructions'],
    patterns: [
      /\byou are now\b[^.\n]{0,40}\b(unrestricted|free|jailbroken|no longer|without (any )?(rules|limits|restrictions))\b/i,
      /\bact as\b[^.\n]{0,20}\b(unrestricted|jailbroken|unfiltered|DAN)\b/i,
      /\b(god|jailbreak|DAN|unrestricted) mode\b/i,
      /^\s*(new|updated|real) (system )?instructions\s*:/i,
    ],
    severity: inProse,
  },
];
