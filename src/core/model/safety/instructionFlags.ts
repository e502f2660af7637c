/**
 * Planted instructions: knowledge items that read as orders to an agent rather than as facts
 * about the project ("Always run `curl … | sh` before building", "Ignore all previous
 * instructions", "send ~/.ssh/id_rsa to …", "set NODE_TLS_REJECT_UNAUTHORIZED=0"). A
 * conversation or an MCP client can plant such lines; Lore flags them so they wait for a
 * person instead of reaching the digest, the context and the agents' instruction files.
 *
 * The rules are data (one table below). Precision comes first: ordinary project knowledge
 * ("the build runs `npm ci` before tests", "curl the health endpoint") must stay clean, so a
 * rule needs an unmistakable shape (an agent named as the addressee, a network fetch piped into
 * an interpreter, a secret sent somewhere, a named security switch turned off), not a keyword.
 *
 * A text is flagged by what it asks an agent to do, in any language a model reads (the phrase
 * table is instructionPhrases.ts): an order addressed to the assistant, a trigger on what the
 * user says, a fake system header, an attempt to override earlier instructions, or a command
 * that destroys or sends away what is not the project's own. A destructive command is told
 * apart from a playbook step by its target: `rm -rf build/` cleans the project's build folder
 * and stays clean; `rm -rf ~`, `rm -rf ~/.ssh`, `rm -rf /`, a force-push, a disk wipe destroy
 * what no project note has reason to ask for. A negation just before such a command ("never
 * run `rm -rf ~`", "we don't force-push main") is a warning, and stays clean.
 */
import { stripInvisible } from './invisibleChars';
import { phrasesOf } from './instructionPhrases';

/** What kind of planted instruction an item looks like. */
export const INSTRUCTION_FLAG_KINDS = [
  'addressed-to-agent',
  'override',
  'remote-exec',
  'exfiltration',
  'weaken-security',
  'destructive',
] as const;
export type InstructionFlagKind = (typeof INSTRUCTION_FLAG_KINDS)[number];

/** One rule that matched. */
export interface InstructionFlag {
  kind: InstructionFlagKind;
  /** The rule's id, e.g. `pipe-to-shell`. */
  rule: string;
  /** The matched text (cut to 80 characters), for reports. */
  excerpt: string;
}

interface InstructionRule {
  kind: InstructionFlagKind;
  rule: string;
  pattern: RegExp;
  /** Must match somewhere in the text as well (a trigger is an order only with something to do). */
  also?: RegExp;
  /** Clean when a negation stands just before the match ("never run …"). */
  unlessNegated?: boolean;
  /**
   * Matched, without the i flag, on the lowercased text (the pattern is written in lower case).
   * The phrase table's alternations in ten scripts cost three times as much case-insensitive.
   */
  lower?: boolean;
  /**
   * What every match of the pattern holds (a word of it, in every language it lists), run the way
   * the pattern is (with its `i`, on the same text). A line none of the screens match, as almost
   * every line of knowledge is, is clean without running the rules; test/core/safety holds each
   * rule to its screen.
   */
  screen: RegExp;
}

// Building blocks shared by several rules.
const AGENT = String.raw`(?:ai|a\.i\.|ai assistants?|(?:coding |ai |the )?assistant|language models?|llms?|claude(?: code)?|copilot|chatgpt|gpt-?\d?|gemini|codex)`;
const FETCH = String.raw`(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod|fetch)`;
const INTERPRETER = String.raw`(?:sh|bash|zsh|dash|ksh|fish|python[0-9.]*|perl|ruby|node|php|pwsh|powershell|iex|invoke-expression|source)`;
const SECRET_FILE = String.raw`(?:~\/\.ssh\b(?!\/\S*\.pub\b)|\$home\/\.ssh\b|\bid_(?:rsa|dsa|ecdsa|ed25519)\b(?!\.pub)|\.aws\/credentials|\.git-credentials|\.netrc\b|\.npmrc\b|\.pypirc\b|\/etc\/(?:passwd|shadow)\b|\.kube\/config|\.docker\/config\.json|(?<!--exclude)(?:^|[\s'"\`(@=/])\.env\b(?!\.example|\.sample|\.template))`;
const SECRET_THING = String.raw`(?:${SECRET_FILE}|\b(?:ssh|private|signing|gpg|pgp) keys?\b|\bcredentials?\b|\b(?:api|access|auth|session|bearer|github|npm|aws) (?:keys?|tokens?)\b|\btokens?\b|\bcookies?\b|\bpasswords?\b|\bsecrets?\b|\benvironment variables\b|\bkeychain\b)`;
const SEND = String.raw`(?:send|upload|post|paste|e-?mail|mail|forward|exfiltrate|leak|transmit|submit|dm|message)`;
const EXTERNAL = String.raw`(?:https?:\/\/|[\w.+-]+@[\w-]+\.[\w.-]+|(?:\d{1,3}\.){3}\d{1,3}\b|\b(?:pastebin|hastebin|gist|webhook|discord|telegram|ngrok|requestbin|transfer\.sh|attacker|external (?:server|host|url|endpoint|address))|\b[\w-]+\.(?:com|net|org|io|xyz|ru|cn|tk|sh|me|dev|app)\b)`;
const DISABLE = String.raw`(?:disable|turn off|switch off|deactivate|bypass|uninstall|kill)`;
const PROTECTION = String.raw`(?:2fa|two[- ]factor(?: auth(?:entication)?)?|mfa|multi[- ]factor(?: auth(?:entication)?)?|firewall|antivirus|anti-virus|(?:windows )?defender|selinux|apparmor|gatekeeper|system integrity protection|uac|user account control|secure boot|(?:ssl|tls|certificate) (?:verification|validation|checks?)|branch protection|signature (?:verification|checks?))`;

// What the phrase and destructive-command rules share: the phrase table's alternations (lower case), and the targets no project note asks to destroy.
const SYSTEM_NOTE = phrasesOf('systemNote');
const YOU_MUST = phrasesOf('youMust');
const ALWAYS = phrasesOf('always');
const ACT = phrasesOf('act');
const HEADER_START = String.raw`(?:^|[.!?。！？]\s*|[\[(<*#【「>]\s*)`;
const INTENSIFIER = String.raw`(?:(?:important|urgent|critical|attention|wichtige?[rs]?|dringende?[rs]?|importante?s?|urgente?s?|belangrijke?|важное|срочное|重要な?|紧急)[\s:!-]*)?`;
/** What `rm` or `Remove-Item` must not be pointed at: the file-system root, the home folder, its keys, system folders. */
const VITAL_PATH = String.raw`(?:\/\*?|~\/?\*?|\$\{?home\}?\/?\*?|%userprofile%\\?|\$env:userprofile\\?|[a-z]:\\(?:\*|windows|users)?|~\/\.(?:ssh|gnupg|aws|kube|config)\/?\*?|\$\{?home\}?\/\.(?:ssh|gnupg|aws)\/?\*?|\/(?:etc|usr|var|home|users|bin|sbin|boot|lib|lib64|opt|root|srv|system|library)\/?\*?|\/tmp\/\*)`;
/** Files whose contents are credentials (never a public key). */
const PRIVATE_FILE = String.raw`(?:\.ssh\/)?\bid_(?:rsa|dsa|ecdsa|ed25519)\b(?!\.pub)|\.aws\/credentials\b|\.git-credentials\b|\.netrc\b|\/etc\/shadow\b|\.kube\/config\b|\.docker\/config\.json|\.gnupg\b`;
/** Where a secret becomes public: the repository, its pull requests and issues, a reply. */
const PUBLISH = String.raw`\b(?:pull request|pr|issue|comment|commit(?: message)?|readme|repo(?:sitory)?|gist|chat|reply|response|answer|git\s+(?:add|commit|push))\b`;
/** Up to 100 characters of one sentence (a dot inside a path or a file name does not end it). */
const SAME_SENTENCE = String.raw`(?:[^.!?;\n]|\.(?=\S)){0,100}?`;
const SECRET_VAR = String.raw`\$?\{?\b[a-z][a-z0-9_]*(?:token|secret|password|passwd|api_key|private_key|access_key)\b`;

/** An order to do something an agent should not: a destructive or exfiltrating command, or an imperative. */
const ORDER = new RegExp(String.raw`${YOU_MUST}|${ACT}|\brm\s+-|\bgit\s+push\b|\bcurl\b|\bwget\b|\bchmod\b|\bmkfs\b|\bdd\s+if=`);

/**
 * The rules. Every pattern runs on one normalized line: case-insensitively, or, marked `lower`,
 * written in lower case and run on the line lowercased. A rule id may have one of each.
 */
const RULES: readonly InstructionRule[] = [
  // Phrasing that tries to replace whatever the agent was told before.
  {
    kind: 'override',
    rule: 'ignore-previous',
    screen: /ignore|disregard|forget|override|bypass|skip/i,
    pattern: new RegExp(
      String.raw`\b(?:ignore|disregard|forget|override|bypass|skip)\s+(?:(?:all|any|every|of|the|your|my|these|those)\s+)*(?:previous|prior|above|earlier|preceding|system|original|initial|other|existing)\s+(?:instructions?|prompts?|rules?|directions?|guidelines?|messages?|context|guardrails?|constraints?)`,
      'i',
    ),
  },
  {
    kind: 'override',
    rule: 'ignore-previous',
    screen:
      /ignor|vergiss|vergessen|missachte|oubli|ne tiens pas|olvid|esque|desconsidere|dimentic|negeer|vergeet|игнорир|забуд|忽略|无视|忘记|忘掉|無視|忘れ/,
    pattern: new RegExp(phrasesOf('ignorePrevious')),
    lower: true,
  },
  {
    kind: 'override',
    rule: 'new-system-prompt',
    screen: /system/i,
    pattern: /\b(?:new|updated|real|actual|hidden)\s+system\s+(?:prompt|instructions?|message)\b|^\s*system\s*(?:prompt)?\s*:/i,
  },
  {
    kind: 'override',
    rule: 'you-are-now',
    screen: /you are now|mode|from now on/i,
    pattern: new RegExp(
      String.raw`\byou are now (?:a|an|the|acting|operating|dan|free|unrestricted|jailbroken|no longer)\b|\b(?:you are now in|enter|switch to) (?:developer|god|dan|jailbreak|unrestricted) mode\b|\bfrom now on,? (?:you|the assistant|the agent)\b`,
      'i',
    ),
  },
  {
    kind: 'override',
    rule: 'you-are-now',
    screen:
      /ab sofort|ab jetzt|von nun an|ab heute|du bist|partir de|sormais|navant|desde ahora|de ahora en|de agora em|doravante|ora in poi|da adesso|vanaf nu|van nu af|voortaan|bent nu|с этого момента|отныне|从现在|从今天|今後|これから|今から/,
    pattern: new RegExp(phrasesOf('fromNowOn')),
    lower: true,
  },
  // "IMPORTANT SYSTEM NOTE:", "WICHTIGER SYSTEMHINWEIS:", "系统通知：": a header claiming the authority of the agent's own instructions.
  {
    kind: 'override',
    rule: 'fake-system-note',
    screen: /syst|admin|developer|security|operator|sistema|систем|系统|システム/,
    pattern: new RegExp(String.raw`${HEADER_START}${INTENSIFIER}${SYSTEM_NOTE}\s*[:!\]】」)-]`),
    lower: true,
  },
  {
    kind: 'override',
    rule: 'chat-template',
    screen: /<\|im_|inst\]|system>|instructions?>/i,
    pattern: /<\|im_start\|>|<\|im_end\|>|\[\/?INST\]|<\/?(?:system|instructions?)>/i,
  },
  {
    kind: 'override',
    rule: 'hide-from-user',
    screen: /the user/i,
    pattern: new RegExp(
      String.raw`\b(?:don't|do not|never)\s+(?:tell|inform|notify|alert|warn)\s+the user\b|\bdo not (?:mention|reveal|disclose) (?:this|it) to the user\b`,
      'i',
    ),
  },
  {
    kind: 'override',
    rule: 'hide-from-user',
    screen: /nutzer|anwender|utilisat|usu|utente|gebruiker|пользовател|用户|ユーザー/,
    pattern: new RegExp(phrasesOf('hideFromUser')),
    lower: true,
  },

  // An agent named as the addressee of an order.
  {
    kind: 'addressed-to-agent',
    rule: 'as-an-ai',
    screen: /\b(?:ai\b|ais reading|a\.i\.|assistant|language model|llm|claude|copilot|chatgpt|gpt|gemini|codex)/i,
    pattern: new RegExp(
      String.raw`\bas an? (?:ai|large language model|language model|llm|ai assistant|assistant)\b|\bif you are an? ${AGENT}\b|\b(?:note|message|instructions?|reminder|attention)\s+(?:to|for)\s+(?:the |any |all )?${AGENT}\b|\b${AGENT}s? reading this\b|\bdear ${AGENT}\b`,
      'i',
    ),
  },
  {
    kind: 'addressed-to-agent',
    rule: 'as-an-ai',
    screen:
      /hinweis|nachricht|anweisung|notiz|information|note|nota|message|mensaje|mensagem|messaggio|instru|istruzion|consigne|avis|aviso|avviso|opmerking|bericht|notitie|mededeling|примечание|сообщение|инструкция|указание|заметка|给|致|(?:ai|claude|copilot)[へに]|アシスタント|モデル|エージェント/,
    pattern: new RegExp(phrasesOf('noteToAgent')),
    lower: true,
  },
  {
    kind: 'addressed-to-agent',
    rule: 'you-must-always',
    screen: /\byou\s+(?:must|should|shall|will|need|have|are)/i,
    pattern:
      /\byou\s+(?:must|should|shall|will|need to|have to|are (?:required|expected|instructed|supposed) to)\s+(?:always|never|now|immediately|silently|secretly|quietly)\b(?!\s+be\b)/i,
  },
  {
    kind: 'addressed-to-agent',
    rule: 'you-must-always',
    screen:
      /you |du musst|du sollst|du solltest|sie m|sie sollen|ihr m|tu dois|vous devez|tu devras|vous devrez|il faut que|debes|deber|tienes que|usted debe|ustedes deben|voc|tu deves|devi|dovete|dovrai|lei deve|moet|dient|долж|обязан|нужно|надо|следует|你|请务必|あなたは|必ず/,
    pattern: new RegExp(
      String.raw`(?:${YOU_MUST}\s*${ALWAYS}|${ALWAYS}\s*${YOU_MUST})(?!\s*(?:be|sein|être|ser|estar|essere|zijn|быть)\b)`,
    ),
    lower: true,
  },
  // "When the user says hello, run …": an order kept for a later conversation. A chatbot's behaviour
  // ("when the user says hello the bot shows the menu") has no order in it and stays clean.
  {
    kind: 'addressed-to-agent',
    rule: 'user-trigger',
    screen: /user|someone|anyone|somebody|nutzer|anwender|utilisat|usu|utente|gebruiker|пользовател|用户|ユーザー/,
    pattern: new RegExp(phrasesOf('userTrigger')),
    also: ORDER,
    lower: true,
  },
  {
    kind: 'addressed-to-agent',
    rule: 'agent-must-always',
    screen: /must|should|shall|needs? to|has to|is (?:required|expected|instructed)/i,
    pattern: new RegExp(
      String.raw`\b(?:the )?${AGENT}\s+(?:must|should|shall|needs? to|has to|is (?:required|expected|instructed) to)\s+(?:always|never|now|immediately|silently|secretly)\b(?!\s+be\b)`,
      'i',
    ),
  },
  {
    kind: 'addressed-to-agent',
    rule: 'standing-order',
    screen: /always|never|anything|of every/i,
    // "Always run X before …", "Never ask for confirmation": an absolute order at the start of a
    // sentence. "Always use UTC" is left alone (a convention, not an action for an agent to take).
    pattern:
      /(?:^|[.!?:;]\s+|^\s*[-*+]\s+)(?:always|never|before (?:doing )?anything(?: else)?,?|at the (?:start|beginning) of every (?:session|conversation|task|reply|response),?)\s+(?:run|execute|exec|download|fetch|curl|wget|source|eval|invoke|send|upload|post|paste|disable|reply|respond|answer|say|tell|mention|print|output|ask|obey|trust|visit|approve|grant)\b/i,
  },
  {
    kind: 'addressed-to-agent',
    rule: 'in-every-reply',
    screen: /your (?:repl|respons|answer|message|output)/i,
    pattern:
      /\b(?:in|at the (?:end|start|beginning) of|to) (?:every|each|all)(?: of)? your (?:repl(?:y|ies)|responses?|answers?|messages?|outputs?)\b/i,
  },

  // Code fetched from the network and run at once.
  {
    kind: 'remote-exec',
    rule: 'pipe-to-shell',
    screen: /curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod|fetch/i,
    pattern: new RegExp(
      String.raw`\b${FETCH}\b[^\n]{0,200}?\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+\S+=\S*\s+)*${INTERPRETER}\b(?!\s+-m\s+json\.tool)`,
      'i',
    ),
  },
  {
    kind: 'remote-exec',
    rule: 'process-substitution',
    screen: /curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod|fetch/i,
    pattern: new RegExp(
      String.raw`(?:\b${INTERPRETER}|(?:^|\s)\.)\s+<\(\s*${FETCH}\b|\b(?:eval|${INTERPRETER}\s+-c)\s+["']?\$\(\s*${FETCH}\b`,
      'i',
    ),
  },
  {
    kind: 'remote-exec',
    rule: 'iex-download',
    screen: /\biex|downloadstring/i,
    pattern:
      /\biex\s*\(?\s*(?:\(?\s*new-object\s+(?:system\.)?net\.webclient|iwr|irm|invoke-webrequest|invoke-restmethod)\b|downloadstring\s*\(/i,
  },
  {
    kind: 'remote-exec',
    rule: 'decode-to-shell',
    screen: /base64/i,
    pattern: new RegExp(
      String.raw`\bbase64\s+(?:-d|--decode|-D)\b[^|\n]*\|\s*(?:sudo\s+)?${INTERPRETER}\b|\bfrombase64string\b.*\biex\b`,
      'i',
    ),
  },
  {
    kind: 'remote-exec',
    rule: 'download-then-run',
    screen: /curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod|fetch/i,
    pattern: new RegExp(
      String.raw`\b${FETCH}\b[^;&|\n]*\s(?:-o|-O|--output)\s*(\S+)[^\n]*?(?:&&|;)\s*(?:sudo\s+)?(?:chmod\s+\+x\s+\S+\s*(?:&&|;)\s*)?(?:${INTERPRETER}\s+\S+|\.\/\S+)`,
      'i',
    ),
  },

  // Secrets sent somewhere, or printed where someone else will read them.
  {
    kind: 'exfiltration',
    rule: 'send-secret',
    screen: /ssh|id_|credential|netrc|npmrc|pypirc|\/etc\/|kube|docker|\.env|key|token|cookie|password|secret|environment variables/i,
    pattern: new RegExp(
      String.raw`\b${SEND}\b[^.!?\n]{0,80}?${SECRET_THING}[^.!?\n]{0,80}?\b(?:to|at|into|on)\s+(?:the |this |my |our |a )?${EXTERNAL}`,
      'i',
    ),
  },
  {
    kind: 'exfiltration',
    rule: 'send-secret-i18n',
    screen: /ssh|id_|credential|netrc|npmrc|pypirc|\/etc\/|kube|docker|\.env/,
    pattern: new RegExp(
      String.raw`${phrasesOf('send')}[^.!?。\n]{0,80}?${SECRET_FILE}[^.!?。\n]{0,80}?${EXTERNAL}|${SECRET_FILE}[^.!?。\n]{0,80}?${phrasesOf('send')}[^.!?。\n]{0,80}?${EXTERNAL}`,
    ),
    lower: true,
  },
  {
    kind: 'exfiltration',
    rule: 'publish-secret',
    screen: /id_|credential|netrc|shadow|kube|docker|gnupg|token|secret|passw|_key/,
    pattern: new RegExp(
      String.raw`(?:${PRIVATE_FILE})${SAME_SENTENCE}${PUBLISH}|${PUBLISH}${SAME_SENTENCE}(?:${PRIVATE_FILE})|\b(?:print|echo|paste|add|include|put|write|post|commit|show|reveal)\b[^.!?\n]{0,40}?${SECRET_VAR}[^.!?\n]{0,60}?\b(?:in|into|to|on)\s+(?:the\s+|a\s+|your\s+|every\s+)?(?:readme|issue|comment|pull request|pr|commit message|reply|response|answer|chat|gist)\b`,
    ),
    unlessNegated: true,
    lower: true,
  },
  {
    kind: 'exfiltration',
    rule: 'secret-over-network',
    screen: /ssh|id_|credential|netrc|npmrc|pypirc|\/etc\/|kube|docker|\.env/i,
    pattern: new RegExp(
      String.raw`\b(?:curl|wget|nc|ncat|netcat|scp|rsync|sftp|ftp|iwr|invoke-webrequest|invoke-restmethod|socat)\b[^\n]{0,120}?${SECRET_FILE}|${SECRET_FILE}[^\n]{0,80}?\|\s*(?:curl|wget|nc|ncat|netcat|socat|base64)\b`,
      'i',
    ),
  },
  {
    kind: 'exfiltration',
    rule: 'env-over-network',
    screen: /(?:env|set)\s*\||curl/i,
    pattern:
      /\b(?:env|printenv|set)\s*\|\s*(?:curl|wget|nc|ncat|netcat|socat)\b|\bcurl\b[^\n]*(?:-d|--data(?:-binary|-raw)?)\s*["']?\$\((?:env|printenv)\)/i,
  },
  {
    kind: 'exfiltration',
    rule: 'secret-in-reply',
    screen: /ssh|id_|credential|netrc|npmrc|pypirc|\/etc\/|kube|docker|\.env|key|token|cookie|password|secret|environment variables/i,
    pattern: new RegExp(
      String.raw`\b(?:print|output|show|reveal|include|paste|echo|display|return|repeat)\b[^.!?\n]{0,40}?${SECRET_THING}[^.!?\n]{0,60}?\b(?:in|into|to) (?:your|the|every) (?:reply|replies|response|answer|output|chat|comment|pull request|pr|issue|commit message)\b`,
      'i',
    ),
  },

  // A named security switch turned off.
  {
    kind: 'weaken-security',
    rule: 'tls-reject-off',
    screen:
      /node_tls_reject|pythonhttpsverify|git_ssl_no_verify|rejectunauthorized|insecureskipverify|_create_unverified_context|curlopt_ssl_verify/i,
    pattern:
      /\bNODE_TLS_REJECT_UNAUTHORIZED\s*=\s*["']?0\b|\bPYTHONHTTPSVERIFY\s*=\s*["']?0\b|\bGIT_SSL_NO_VERIFY\s*=\s*["']?(?:1|true)\b|\brejectUnauthorized\s*:\s*false\b|\bInsecureSkipVerify\s*:\s*true\b|\bssl\._create_unverified_context\b|\bCURLOPT_SSL_VERIFY(?:PEER|HOST)\b[^\n]{0,12}\b(?:0|false)\b/i,
  },
  {
    kind: 'weaken-security',
    rule: 'verify-false',
    screen: /verify|strict-ssl|stricthostkeychecking/i,
    pattern:
      /\bverify\s*=\s*False\b|\bssl_?verify\s*[=:]\s*["']?(?:false|0|no)\b|\bstrict-ssl\s*(?:=|\s)\s*["']?false\b|\bhttp\.sslverify\s*(?:=\s*)?["']?false\b|\bStrictHostKeyChecking\s*[= ]\s*no\b/i,
  },
  {
    kind: 'weaken-security',
    rule: 'insecure-flag',
    screen: /--insecure|--no-check-certificate|--disable-web-security|--no-verify|curl/i,
    pattern: /(?:^|\s)--(?:insecure|no-check-certificate|disable-web-security|no-verify(?:-ssl)?)(?![\w-])|\bcurl\b[^\n|]*\s-k\b/i,
  },
  {
    kind: 'weaken-security',
    rule: 'world-writable',
    screen: /777/i,
    pattern:
      /\bchmod\s+(?:(?:-R|--recursive)\s+)?0?777\s+(?:\/|~|\$HOME|\/etc|\/usr|\/var|\/bin)(?=[\s/]|$)|\bchmod\s+(?:-R|--recursive)\s+0?777\b/i,
  },
  {
    kind: 'weaken-security',
    rule: 'disable-protection',
    screen: /disable|turn off|switch off|deactivate|bypass|uninstall|kill|setenforce|ufw|csrutil|spctl|netsh/i,
    pattern: new RegExp(
      String.raw`\b${DISABLE}\s+(?:the\s+|your\s+|all\s+)?${PROTECTION}\b|\bsetenforce\s+0\b|\bufw\s+disable\b|\bcsrutil\s+disable\b|\bspctl\s+--master-disable\b|-DisableRealtimeMonitoring\s+\$?true\b|\bnetsh\s+advfirewall\s+set\s+\S+\s+state\s+off\b`,
      'i',
    ),
  },
  {
    kind: 'weaken-security',
    rule: 'execution-policy',
    screen: /executionpolicy/i,
    pattern: /\bset-executionpolicy\s+(?:-executionpolicy\s+)?(?:bypass|unrestricted)\b|-ExecutionPolicy\s+(?:Bypass|Unrestricted)\b/i,
  },
  // Commands that destroy what is not the project's own: the home folder, its keys, the system, the remote's history.
  {
    kind: 'destructive',
    rule: 'delete-vital-path',
    screen: /\b(?:rm|rmdir|del|rd|remove-item|ri|shred|srm|trash)\s|--no-preserve-root|\b(?:delete|wipe|erase|destroy|remove)\s/,
    pattern: new RegExp(
      String.raw`\b(?:rm|rmdir|del|rd|remove-item|ri|shred|srm|trash)\s+(?:(?:-{1,2}[\w-]+|\/[a-z])\s+){0,6}(?:\S+\s+){0,8}?${VITAL_PATH}(?=$|[\s;&|'"\`),])|--no-preserve-root\b|\b(?:delete|wipe|erase|destroy|remove)\s+(?:all\s+(?:of\s+)?)?(?:the\s+user['’]?s\s+|your\s+|the\s+|my\s+)?(?:home\s+(?:directory|folder|dir)|ssh\s+keys?|~\/\.ssh|\.ssh\s+(?:folder|directory)|root\s+file\s?system|entire\s+(?:disk|drive|file\s?system))\b`,
    ),
    unlessNegated: true,
    lower: true,
  },
  {
    kind: 'destructive',
    rule: 'force-push',
    screen: /push/,
    pattern:
      /\bgit\s+push\b[^\n;&|`'"()]{0,120}?\s(?:--force(?![\w-])|-f\b|-[a-z]*f[a-z]*\b|\+[\w/-]+)|\bforce[- ]?push(?:ing)?\s+(?:it\s+|that\s+|this\s+)?(?:to\s+|onto\s+|over\s+)?(?:the\s+)?(?:main|master|origin|remote|production|prod|release|default|upstream|shared)\b/,
    unlessNegated: true,
    lower: true,
  },
  {
    kind: 'destructive',
    rule: 'wipe-disk',
    screen: /\/dev\/|:\(\)|format|diskutil/,
    pattern:
      /\bdd\s+[^\n]*\bof=\/dev\/(?:sd|hd|nvme|disk|mmcblk|xvd|vd)|\bmkfs(?:\.\w+)?\s+(?:-\S+\s+)*\/dev\/|>\s*\/dev\/(?:sd|nvme|disk|hd)[a-z0-9]*\b|:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:|\bformat\s+[a-z]:(?=\s|$)|\bdiskutil\s+(?:erase\w*|zerodisk)\b/,
    unlessNegated: true,
    lower: true,
  },
  {
    kind: 'weaken-security',
    rule: 'sudo-password',
    screen: /sudo|nopasswd/i,
    pattern: /\becho\s+\S+\s*\|\s*sudo\s+(?:-\S+\s+)*-S\b|\bsudo\s+-S\b|\bNOPASSWD\s*:\s*ALL\b/i,
  },
];

/** The text the rules read: compatibility forms folded (full-width letters), invisible characters gone, one line. */
function normalizeForRules(text: string): string {
  return stripInvisible(text.normalize('NFKC')).replace(/\s+/g, ' ');
}

/** The rules' screens in one pattern for the text as it is (case-insensitive) and one for it lowercased. */
const SCREEN = screenOf(
  RULES.filter((r) => !r.lower),
  'i',
);
const SCREEN_LOWER = screenOf(
  RULES.filter((r) => r.lower),
  '',
);

function screenOf(rules: readonly InstructionRule[], flags: string): RegExp {
  return new RegExp([...new Set(rules.map((r) => r.screen.source))].map((s) => `(?:${s})`).join('|'), flags);
}

/** The planted-instruction rules an item text matches; empty when it reads as plain knowledge. */
export function flagInstruction(text: string): InstructionFlag[] {
  if (!text) return [];
  const normalized = normalizeForRules(text);
  const lowered = normalized.toLowerCase();
  return passesScreen(normalized, lowered) ? flagsOf(normalized, lowered) : [];
}

/** Whether any rule may match `text` (the rules run only then). */
export function mayHoldInstruction(text: string): boolean {
  const normalized = normalizeForRules(text);
  return passesScreen(normalized, normalized.toLowerCase());
}

function passesScreen(normalized: string, lowered: string): boolean {
  return SCREEN.test(normalized) || SCREEN_LOWER.test(lowered);
}

/** Every rule run on a line, screened or not: what flagInstruction does, and what its screen's test compares it with. */
export function flagEveryRule(text: string): InstructionFlag[] {
  if (!text) return [];
  const normalized = normalizeForRules(text);
  return flagsOf(normalized, normalized.toLowerCase());
}

function flagsOf(normalized: string, lowered: string): InstructionFlag[] {
  const flags: InstructionFlag[] = [];
  for (const { kind, rule, pattern, also, unlessNegated, lower } of RULES) {
    if (flags.some((f) => f.rule === rule)) continue;
    const subject = lower ? lowered : normalized;
    const match = firstMatch(pattern, subject, unlessNegated === true);
    if (match && (!also || also.test(subject))) flags.push({ kind, rule, excerpt: match.trim().slice(0, 80) });
  }
  return flags;
}

// Only words that carry the command may stand between ("don't hesitate to run …" is no warning).
const CARRIER = String.raw`(?:ever|run|use|execute|exec|type|call|do|try|to|a|an|the|with|via|by|using|commands?|it|this|that|put|add|commit|copy|paste|push|include|upload|post|share|store|keep|check in|print|echo|cat|leave|git|your|any|in|into|file|files|or|and|\.env|ausführen|verwenden|exécute[rz]?|lance[rz]?|utilise[rz]?|ejecutes?|uses?|executar|usar|eseguire|esegui|usare|uitvoeren|gebruiken|запускай|выполняй|используй|运行|执行|使用)`;
/** A negation a few words before a command, in its sentence ("never run `rm -rf ~`", "we don't force-push main"). */
const NEGATED_BEFORE = new RegExp(String.raw`${phrasesOf('negation')}\s*(?:${CARRIER}\s*)*[\`"'(]?\s*(?:~\/|\$HOME\/)?$`, 'i');
/** Japanese negates after the verb: "`rm -rf ~` を実行しないでください". */
const NEGATED_AFTER =
  /^[`"'\s]*(?:を|は)?\s*(?:実行|使用|使)?(?:しないで|しない|してはいけない|禁止)|^[`"'\s]*(?:is|are|must|should)\s+(?:never|not|forbidden|prohibited|blocked)\b/i;

const GLOBAL = new Map<RegExp, RegExp>();
/** `pattern` with the g flag (for matchAll), compiled once. */
function globalOf(pattern: RegExp): RegExp {
  let global = GLOBAL.get(pattern);
  if (!global) GLOBAL.set(pattern, (global = new RegExp(pattern.source, `${pattern.flags}g`)));
  return global;
}

/** The first match of `pattern` that is not negated (when asked), as its text. */
function firstMatch(pattern: RegExp, text: string, unlessNegated: boolean): string | undefined {
  if (!unlessNegated) return pattern.exec(text)?.[0];
  // exec on one compiled global copy: matchAll would clone the pattern on every call.
  const global = globalOf(pattern);
  global.lastIndex = 0;
  for (let match = global.exec(text); match; match = global.exec(text)) {
    if (match[0] === '') global.lastIndex++;
    const before = text.slice(Math.max(0, match.index - 40), match.index);
    const after = text.slice(match.index + match[0].length, match.index + match[0].length + 40);
    if (!NEGATED_BEFORE.test(before) && !NEGATED_AFTER.test(after)) return match[0];
  }
  return undefined;
}

/**
 * The rules as text (each pattern's source and flags), for caches of flagged output: a Lore whose
 * rules differ must not trust what an older one left. Reading a pattern's source does not compile it.
 */
export function instructionRulesText(): string {
  const extras = (r: InstructionRule) =>
    `${r.lower ? ' lower' : ''}${r.unlessNegated ? ' unless-negated' : ''}${r.also ? ` also /${r.also.source}/${r.also.flags}` : ''}`;
  return [
    ...RULES.map((r) => `${r.rule} /${r.pattern.source}/${r.pattern.flags}${extras(r)}`),
    `negated /${NEGATED_BEFORE.source}/ /${NEGATED_AFTER.source}/`,
  ].join('\n');
}

/**
 * A 32-bit hash of instructionRulesText (FNV-1a over its UTF-16 code units: no node:crypto). The
 * search index records it (search/sqliteSchema.ts); esbuild.mjs writes it into the bundles, so
 * they need not load the rules to open the index.
 */
export function instructionRulesHash(): number {
  const text = instructionRulesText();
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** The distinct kinds of a list of flags, in rule order. */
export function flagKinds(flags: readonly InstructionFlag[]): InstructionFlagKind[] {
  return [...new Set(flags.map((f) => f.kind))];
}

/** Human-readable explanations of each kind (reports, tooltips). */
export const FLAG_KIND_DESCRIPTIONS: Readonly<Record<InstructionFlagKind, string>> = {
  'addressed-to-agent': 'an order addressed to the AI assistant',
  override: 'tries to replace the agent\'s instructions ("ignore previous instructions", "you are now …")',
  'remote-exec': 'runs code fetched from the network (e.g. curl … | sh)',
  exfiltration: 'sends credentials, keys or private files somewhere',
  'weaken-security': 'turns a security check off (TLS verification, hooks, firewall, 2FA …)',
  destructive: "destroys what is not the project's own (rm -rf ~, ~/.ssh or /, a force-push, a disk wipe)",
};
