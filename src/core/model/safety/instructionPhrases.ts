/**
 * The phrases of planted instructions in the languages a model reads, one row per language, for
 * the rules in instructionFlags.ts. A model follows an order in German or Chinese as readily as
 * in English, so the shapes the rules look for (a fake system header, "ignore the previous
 * instructions", a note addressed to the AI, "from now on you…", "don't tell the user", a
 * trigger on what the user says, "you must always…") are listed for each language. Each entry is
 * a regular-expression source, matched case-insensitively on one normalized line (NFKC, so
 * full-width punctuation is ASCII). Cyrillic and CJK have no `\b` in JavaScript's non-Unicode
 * mode, so their phrases stand without one.
 *
 * English keeps its richer rules in instructionFlags.ts; its row here holds only what the new
 * rules need.
 */

/** The phrases of one language; an absent field has no phrase in that language. */
export interface LanguagePhrases {
  /** A fake authority header ("SYSTEM NOTE"); the rule wants a colon or bracket after it. */
  systemNote: string;
  /** "Ignore the previous instructions". */
  ignorePrevious?: string;
  /** "Note to the AI assistant". */
  noteToAgent?: string;
  /** "From now on you are / you must". */
  fromNowOn?: string;
  /** "Don't tell the user". */
  hideFromUser?: string;
  /** "When the user says …": a trigger planted for a later conversation. */
  userTrigger: string;
  /** "You must", addressed to the reader. */
  youMust: string;
  /** "Always", "never", "immediately", "silently": what makes "you must" a standing order. */
  always?: string;
  /** Imperative verbs an order to an agent uses (run, delete, reply, send). */
  act: string;
  /** "Send", "upload": for secrets sent somewhere. */
  send?: string;
  /** A negation just before a command ("never run `rm -rf ~`" warns, it does not order). */
  negation: string;
}

export const LANGUAGE_PHRASES: Readonly<Record<string, LanguagePhrases>> = {
  en: {
    systemNote: String.raw`(?:system|admin(?:istrator)?|developer|security|operator) (?:note|notice|message|alert|override|update|instructions?|directive|command)`,
    userTrigger: String.raw`\b(?:when(?:ever)?|if|once|as soon as|each time|every time) (?:(?:the |a )?user|someone|anyone|somebody) (?:says|types|writes|sends|enters|asks|mentions|greets)\b`,
    youMust: String.raw`\byou (?:must|should|shall|need to|have to|are (?:required|expected|instructed|supposed) to)\b`,
    act: String.raw`(?:^|[,:;]\s*|\bthen\s+|\byou\s+(?:must\s+|should\s+|will\s+)?)(?:run|execute|delete|remove|wipe|reply|respond|answer|say|send|upload|push|print|output|ignore|tell|add|include|append|approve)\b`,
    negation: String.raw`\b(?:never|don['’]?t|do not|must not|mustn['’]t|should not|shouldn['’]t|cannot|can['’]t|not|avoid|no one should)`,
  },
  de: {
    systemNote: String.raw`system(?:hinweis|nachricht|meldung|anweisung|notiz|befehl|mitteilung)|(?:hinweis|nachricht|anweisung) des systems`,
    ignorePrevious: String.raw`\b(?:ignoriere|ignorieren sie|vergiss|vergessen sie|missachte)\b (?:\S+ ){0,3}?(?:vorherigen?|bisherigen?|obigen?|früheren?|vorigen?|ursprünglichen?) (?:anweisungen|instruktionen|regeln|vorgaben|befehle|richtlinien)`,
    noteToAgent: String.raw`\b(?:hinweis|nachricht|anweisung|notiz|information)(?:en)? (?:an|für) (?:den |die |das |alle )?(?:ki|ki-assistent(?:en)?|assistent(?:en)?|ki-agent(?:en)?|agent(?:en)?|sprachmodell|llm|claude|copilot)\b`,
    fromNowOn: String.raw`\b(?:ab (?:sofort|jetzt)|von nun an|ab heute),? (?:(?:\S+ ){0,2}?(?:du|sie) (?:bist|musst|sollst|wirst|darfst)|(?:bist|musst|sollst|wirst|darfst) (?:du|sie))\b|\bdu bist (?:jetzt|nun|ab sofort) (?:ein|eine|der|die)\b`,
    hideFromUser: String.raw`\b(?:sag|sage|erzähl|erzähle|verrate|teile) (?:es |das |dies |davon )?(?:dem |der )?(?:benutzer|nutzer|anwender)(?:in)? (?:nichts|nicht)\b`,
    userTrigger: String.raw`\b(?:wenn|sobald|falls|immer wenn) (?:der |die )?(?:benutzer|nutzer|anwender)(?:in)? (?:\S+ ){0,4}?(?:sagt|schreibt|eingibt|eintippt|tippt|erwähnt|fragt|sendet)\b`,
    youMust: String.raw`\b(?:du musst|du sollst|du solltest|sie müssen|sie sollen|ihr müsst)\b`,
    always: String.raw`\b(?:immer|stets|nie|niemals|sofort|jetzt|heimlich|stillschweigend|unbemerkt)\b`,
    act: String.raw`\b(?:führe|führen sie|lösche|löschen sie|antworte|antworten sie|sende|schicke|schreibe|ignoriere|gib|füge|pushe)\b|\baus(?:führen|zuführen)\b`,
    send: String.raw`\b(?:sende|senden|schicke|schick|übertrage|lade)\b`,
    negation: String.raw`\b(?:nie|niemals|nicht|keine?n?|keinesfalls|auf keinen fall)`,
  },
  fr: {
    systemNote: String.raw`(?:note|message|avis|instruction|consigne|alerte)s? (?:importante?s? )?(?:du |de )?système`,
    ignorePrevious: String.raw`\b(?:ignore[rz]?|oublie[rz]?|ne tiens pas compte des)\b (?:\S+ ){0,3}?(?:instructions|consignes|règles|directives) (?:précédentes|antérieures|ci-dessus|initiales|d['’]origine)`,
    noteToAgent: String.raw`\b(?:note|message|instructions?|consignes?|avis) (?:à|pour) (?:l['’]|le |la |les |tout |toute )?(?:ia|assistant(?: ia| d['’]ia)?|agent(?: ia)?|modèle(?: de langage)?|llm|claude|copilot)\b`,
    fromNowOn: String.raw`\b(?:à partir de maintenant|désormais|dorénavant),? (?:tu|vous) (?:es|êtes|dois|devez|vas|allez)\b`,
    hideFromUser: String.raw`\bne (?:le |lui |rien )?(?:dis|dites|mentionne|mentionnez|signale|signalez)(?: rien| pas)? (?:à|a) l['’]utilisat(?:eur|rice)\b`,
    userTrigger: String.raw`\b(?:quand|lorsque|si|dès que|chaque fois que) l['’]utilisat(?:eur|rice) (?:dit|écrit|tape|saisit|mentionne|demande|envoie)\b`,
    youMust: String.raw`\b(?:tu dois|vous devez|tu devras|vous devrez|il faut que tu|il faut que vous)\b`,
    always: String.raw`\b(?:toujours|jamais|immédiatement|maintenant|discrètement|en silence)\b`,
    act: String.raw`\b(?:exécute|exécutez|exécuter|lance|lancez|supprime|supprimez|réponds|répondez|envoie|envoyez|écris|écrivez|ajoute|ajoutez)\b`,
    send: String.raw`\b(?:envoie|envoyez|envoyer|transmets|transmettez|téléverse|téléversez)\b`,
    negation: String.raw`\b(?:ne|n['’]|jamais|surtout pas)`,
  },
  es: {
    systemNote: String.raw`(?:nota|mensaje|aviso|instrucci[oó]n|alerta)(?: importante)? (?:del|de) sistema`,
    ignorePrevious: String.raw`\b(?:ignora|ignore|ignorad|olvida|olvide)\b (?:\S+ ){0,3}?(?:instrucciones|reglas|indicaciones|directrices) (?:anteriores|previas|de arriba|originales)`,
    noteToAgent: String.raw`\b(?:nota|mensaje|instrucci[oó]n(?:es)?|aviso) (?:para|al?) (?:el |la |los |las |cualquier )?(?:ia|asistente(?: de ia)?|agente(?: de ia)?|modelo(?: de lenguaje)?|llm|claude|copilot)\b`,
    fromNowOn: String.raw`\b(?:a partir de ahora|desde ahora|de ahora en adelante),? (?:tú |usted )?(?:eres|es|debes|debe|vas a|tienes que)\b`,
    hideFromUser: String.raw`\bno (?:le |se lo |se la )?(?:digas|diga|cuentes|menciones|informes|avises) (?:nada )?al usuario\b`,
    userTrigger: String.raw`\b(?:cuando|si|cada vez que|en cuanto) el usuario (?:diga|dice|escriba|escribe|mencione|menciona|pida|pide|env[ií]e)\b`,
    youMust: String.raw`\b(?:debes|deber[aá]s|tienes que|usted debe|ustedes deben)\b`,
    always: String.raw`\b(?:siempre|nunca|jam[aá]s|inmediatamente|ahora mismo|en silencio)\b`,
    act: String.raw`\b(?:ejecuta|ejecute|ejecutar|borra|borre|elimina|elimine|responde|responda|env[ií]a|env[ií]e|escribe|escriba|añade|agrega)\b`,
    send: String.raw`\b(?:env[ií]a|env[ií]e|enviar|sube|suba|manda|mande)\b`,
    negation: String.raw`\b(?:no|nunca|jam[aá]s)`,
  },
  pt: {
    systemNote: String.raw`(?:nota|mensagem|aviso|instru[cç][aã]o|alerta)(?: importante)? (?:do|de) sistema`,
    ignorePrevious: String.raw`\b(?:ignore|ignora|esque[cç]a|esquece|desconsidere)\b (?:\S+ ){0,3}?(?:instru[cç][oõ]es|regras|diretrizes|orienta[cç][oõ]es) (?:anteriores|pr[eé]vias|acima|originais)`,
    noteToAgent: String.raw`\b(?:nota|mensagem|instru[cç][aã]o|instru[cç][oõ]es|aviso) (?:para|ao?) (?:o |a |os |as |qualquer )?(?:ia|assistente(?: de ia)?|agente(?: de ia)?|modelo(?: de linguagem)?|llm|claude|copilot)\b`,
    fromNowOn: String.raw`\b(?:a partir de agora|de agora em diante|doravante),? (?:voc[eê] |tu )?(?:[eé]|deve|deves|vai|precisa|tem que)\b`,
    hideFromUser: String.raw`\bn[aã]o (?:conte|diga|mencione|informe|avise|fale)(?: nada| isso)? (?:ao|para o) usu[aá]rio\b`,
    userTrigger: String.raw`\b(?:quando|se|sempre que|assim que) o usu[aá]rio (?:disser|diz|escrever|escreve|digitar|digita|mencionar|menciona|pedir|pede|enviar)\b`,
    youMust: String.raw`\b(?:voc[eê] deve|voc[eê] precisa|voc[eê] tem que|tu deves|voc[eê]s devem)\b`,
    always: String.raw`\b(?:sempre|nunca|jamais|imediatamente|agora|em sil[eê]ncio|silenciosamente)\b`,
    act: String.raw`\b(?:execute|executa|executar|apague|apaga|exclua|responda|responde|envie|envia|escreva|adicione)\b`,
    send: String.raw`\b(?:envie|envia|enviar|mande|manda|carregue)\b`,
    negation: String.raw`\b(?:n[aã]o|nunca|jamais)`,
  },
  it: {
    systemNote: String.raw`(?:nota|messaggio|avviso|istruzion[ei]|avvertenza)(?: importante)? (?:di|del) sistema`,
    ignorePrevious: String.raw`\b(?:ignora|ignorate|dimentica|dimenticate)\b (?:\S+ ){0,3}?(?:istruzioni|regole|indicazioni|direttive) (?:precedenti|di prima|sopra|originali)`,
    noteToAgent: String.raw`\b(?:nota|messaggio|istruzion[ei]|avviso) (?:per|al|alla|all['’]) ?(?:l['’])?(?:ia|assistente(?: ia| di ia)?|agente(?: ia)?|modello(?: linguistico)?|llm|claude|copilot)\b`,
    fromNowOn: String.raw`\b(?:d['’]ora in poi|da ora in poi|da adesso),? (?:tu )?(?:sei|devi|dovrai)\b`,
    hideFromUser: String.raw`\bnon (?:dire|dirlo|raccontare|menzionare|riferire)(?: nulla| niente)? all['’]utente\b|\bnon (?:informare|avvisare) l['’]utente\b`,
    userTrigger: String.raw`\b(?:quando|se|ogni volta che|appena) l['’]utente (?:dice|scrive|digita|menziona|chiede|invia)\b`,
    youMust: String.raw`\b(?:devi|dovete|dovrai|tu devi|lei deve)\b`,
    always: String.raw`\b(?:sempre|mai|immediatamente|subito|ora|in silenzio|di nascosto)\b`,
    act: String.raw`\b(?:esegui|eseguite|eseguire|cancella|elimina|rispondi|invia|scrivi|aggiungi)\b`,
    send: String.raw`\b(?:invia|inviate|inviare|manda|mandate|carica|caricate)\b`,
    negation: String.raw`\b(?:non|mai)`,
  },
  nl: {
    systemNote: String.raw`systeem(?:melding|bericht|notitie|instructie|opmerking|mededeling)`,
    ignorePrevious: String.raw`\b(?:negeer|vergeet)\b (?:\S+ ){0,3}?(?:vorige|eerdere|bovenstaande|oorspronkelijke) (?:instructies|regels|aanwijzingen|richtlijnen)`,
    noteToAgent: String.raw`\b(?:opmerking|bericht|instructies?|notitie|mededeling) (?:voor|aan) (?:de |het |alle )?(?:ai|ai-assistent|assistent|ai-agent|agent|taalmodel|llm|claude|copilot)\b`,
    fromNowOn: String.raw`\b(?:vanaf nu|van nu af aan|voortaan),? (?:ben|moet|zal|ga) (?:je|jij|u)\b|\b(?:je|jij|u) bent nu (?:een|de)\b`,
    hideFromUser: String.raw`\b(?:vertel|zeg|meld) (?:het |dit |dat )?(?:niet|niets) (?:aan|tegen) de gebruiker\b`,
    userTrigger: String.raw`\b(?:wanneer|als|zodra|telkens als) de gebruiker (?:\S+ ){0,4}?(?:zegt|typt|schrijft|noemt|vraagt|stuurt)\b`,
    youMust: String.raw`\b(?:je moet|jij moet|u moet|je dient|u dient|moet je|moet u)\b`,
    always: String.raw`\b(?:altijd|nooit|onmiddellijk|meteen|stilletjes|ongemerkt)\b`,
    act: String.raw`\b(?:voer|verwijder|antwoord|stuur|schrijf|voeg)\b`,
    send: String.raw`\b(?:stuur|verstuur|upload|verzend)\b`,
    negation: String.raw`\b(?:niet|nooit|geen)`,
  },
  ru: {
    systemNote: String.raw`системн(?:ое|ая|ый) (?:сообщение|уведомление|указание|заметка|примечание|инструкция|предупреждение)|сообщение системы`,
    ignorePrevious: String.raw`(?:игнорируй|игнорируйте|забудь|забудьте) (?:\S+ ){0,3}?(?:предыдущие|прежние|вышеуказанные|исходные) (?:инструкции|указания|правила)`,
    noteToAgent: String.raw`(?:примечание|сообщение|инструкция|указание|заметка)(?:,)? для (?:ии|ai|ассистента|ии-ассистента|агента|модели|нейросети|языковой модели|claude|copilot)`,
    fromNowOn: String.raw`(?:с этого момента|отныне),? (?:ты|вы) (?:—|-)? ?(?:должен|должна|должны|являешься|будешь|будете)`,
    hideFromUser: String.raw`не (?:говори|говорите|сообщай|сообщайте|рассказывай|рассказывайте) (?:об этом |ничего )?пользователю`,
    userTrigger: String.raw`(?:когда|если|как только) пользователь (?:скажет|напишет|говорит|пишет|введ[её]т|упомянет|попросит)`,
    youMust: String.raw`(?:ты|вы) (?:должен|должна|должны|обязан|обязана|обязаны)|(?:тебе|вам) (?:нужно|надо|следует)`,
    always: String.raw`всегда|никогда|немедленно|сразу|незаметно|молча`,
    act: String.raw`(?:выполни|выполните|запусти|запустите|удали|удалите|ответь|ответьте|отправь|отправьте|напиши|напишите|добавь)`,
    send: String.raw`(?:отправь|отправьте|пошли|пришли|загрузи|загрузите|перешли)`,
    negation: String.raw`(?:^|\s)(?:не|никогда не|нельзя|запрещено)`,
  },
  zh: {
    systemNote: String.raw`系统(?:提示|通知|消息|指令|说明|公告|警告)`,
    ignorePrevious: String.raw`(?:忽略|无视|忘记|忘掉)(?:之前|以前|上面|先前|上述|所有|全部)(?:的)?(?:所有)?(?:指令|指示|说明|规则|提示)`,
    noteToAgent: String.raw`(?:给|致)(?:ai|人工智能|ai助手|助手|模型|智能体|大模型|claude|copilot)(?:的)?(?:说明|提示|消息|指令|注意|备注)`,
    fromNowOn: String.raw`从(?:现在|今天)(?:开始|起),?\s*你`,
    hideFromUser: String.raw`(?:不要|别|切勿|无需)(?:告诉|通知|告知|提醒)用户`,
    userTrigger: String.raw`(?:当|如果|每当|一旦|只要)用户(?:说|输入|提到|发送|问)`,
    youMust: String.raw`你(?:必须|应该|需要|务必|一定要)|请务必`,
    always: String.raw`总是|始终|永远|立即|马上|立刻|悄悄|默默`,
    act: String.raw`执行|运行|删除|回复|回答|发送|输出|添加`,
    send: String.raw`发送|上传|发给|发到|传到`,
    negation: String.raw`(?:不要|别|切勿|禁止|绝不|不能|不得|不可)`,
  },
  ja: {
    systemNote: String.raw`システム(?:通知|メッセージ|指示|メモ|注意|警告)`,
    ignorePrevious: String.raw`(?:以前|前|上記|これまで|先)の(?:すべての)?(?:指示|命令|ルール|指令)を(?:無視|忘れ)`,
    noteToAgent: String.raw`(?:ai|アシスタント|aiアシスタント|モデル|エージェント|claude|copilot)(?:へ|に)(?:の)?(?:注意|指示|メッセージ|お知らせ|メモ|連絡)`,
    fromNowOn: String.raw`(?:今後|これから|今から)(?:は)?[,、]?\s*あなたは`,
    hideFromUser: String.raw`ユーザー(?:に|には)(?:言わ|伝え|知らせ|教え)(?:ない|ず)`,
    userTrigger: String.raw`ユーザーが.{0,20}?(?:と言ったら|と言った時|と言ったとき|と入力したら|と書いたら|と言うとき|と送ったら)`,
    youMust: String.raw`あなたは|必ず`,
    always: String.raw`常に|必ず|いつも|すぐに|直ちに|黙って|こっそり`,
    act: String.raw`実行|削除|返信|返答|送信|出力`,
    send: String.raw`送信|送って|アップロード`,
    negation: String.raw`(?:決して|絶対に)`,
  },
};

/** One alternation of a field over every language that has it. */
export function phrasesOf(field: keyof LanguagePhrases): string {
  const sources = Object.values(LANGUAGE_PHRASES)
    .map((row) => row[field])
    .filter((source): source is string => !!source);
  return `(?:${sources.map((s) => `(?:${s})`).join('|')})`;
}
