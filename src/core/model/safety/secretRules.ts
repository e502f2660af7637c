/**
 * The secret rules, as data: one row per kind of credential, read by redact.ts. Written for
 * Lore (in the spirit of gitleaks and secretlint, not copied from them), tuned for conversation
 * text: specific token formats first, then credentials recognised by their context (a variable
 * name, a header, a URL), then generic `NAME=value` assignments.
 *
 * Every pattern must stay linear on hostile input (a 1 MB line redacts in well under a second):
 * an unbounded run is either the end of the pattern or starts where no run of the same
 * characters can start earlier (a negative lookbehind), and context before the secret is
 * bounded. Rows are applied in order; a later row never matches inside `[REDACTED:…]`.
 */

export interface SecretRule {
  /** Short stable name, shown as `[REDACTED:kind]`. */
  kind: string;
  /** What the secret is, for people. */
  description: string;
  /** How a sample starts (or the context it is found in), for the README table. */
  example: string;
  /** Global regular expression. */
  pattern: RegExp;
  /**
   * What every match holds that has no run of TOKEN_RUN token characters (`[A-Za-z0-9_-]`): a
   * pattern it matches. None: every match holds such a run (most token formats: a prefix and 20
   * or more characters). Redaction skips the rules at once for a text with neither, which is
   * almost every line of prose; test/core/safety/redact.test.ts holds each rule to it.
   */
  screen?: RegExp;
  /**
   * Substrings (compared with case) one of which every match contains: text without any of them
   * skips the rule. Only for rules the regex engine scans slowly (no literal to skip ahead to):
   * for the others the extra string search costs more than it saves.
   */
  hints?: string[];
  /**
   * Capture groups that may hold the secret; the first that took part is replaced and the rest
   * of the match (a variable name, a header, a URL's user) is kept. None: the whole match.
   */
  secret?: number[];
  /** A match is skipped when its secret matches this (placeholders, code references). */
  unless?: RegExp;
  /** For assignments: the capture group of the variable name, and what the name must look like. */
  name?: { group: number; pattern: RegExp; unless?: RegExp };
}

/** The shortest run of token characters (`[A-Za-z0-9_-]`) a match of a rule without a `screen` holds. */
export const TOKEN_RUN = 16;

/** Values that name a secret instead of being one: env references, code, placeholders. */
const REFERENCE =
  /^(?:\$\{?[A-Za-z_][\w.]*\}?|%[A-Za-z_]\w*%|\{\{.*\}\}|<[^>]*>|process\.env\b.*|os\.environ\b.*|[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+|[*xX•.#_-]+|(?:none|null|nil|undefined|true|false|required|optional|string|boolean|number|redacted|changeme|password|secret|token|example)\b.*)$/i;

/** A value that is a path to a file (`SSH_KEY=~/.ssh/id_ed25519`), not the secret in it. */
const PATH_VALUE = /^(?:~|\.{1,2})\/\S*$/;

/** Assignment values too plain to be a generated secret: letters only and short. */
const PLAIN_WORD = /^[A-Za-z_./-]{1,15}$/;

/**
 * An assignment `NAME=value` / `NAME: value` / `"NAME": "value"` whose name contains one of
 * `words` (compared without case; the rule's name filter then decides on the exact name): the
 * name (group 1) right before `=` or `:`, the value quoted (groups 2, 3) or bare (4). The match
 * starts at the `=` or `:`, so the scan only stops there, and the name is checked before any
 * value is read. A bare value that is one lower-case word (`passwd: outside the workspace`) is
 * prose, not a secret; quoted, it counts.
 */
function assignment(words: string): RegExp {
  return new RegExp(
    String.raw`[:=](?<=(?<![A-Za-z0-9_.-])([A-Za-z0-9_.-]{0,48}(?:${words})[A-Za-z0-9_.-]{0,24})["']?[ \t]{0,4}[:=])[ \t]{0,4}` +
      String.raw`(?:"([^"\n]{4,512})"|'([^'\n]{4,512})'|(?!\[REDACTED|[a-z]{1,12}(?:[\s"'\x60,;)<>}\]&|]|$))([^\s"'\x60,;()<>{}[\]&|]{4,512})(?![^\s"'\x60,;)<>}\]&|]))`,
    'gi',
  );
}

/** Names that are not secrets although they contain a secret-sounding word. */
const NOT_SECRET_NAME =
  /(?:^|_)(?:public|primary|foreign|sort|partition|hash|cache|idempotency|lookup|row|map|dict|hot|monkey|turkey|max|num|total)_(?:key|keys|token|tokens)(?:_|$)|_(?:count|type|types|limit|usage|budget|len|length|size|id|ids|url|uri|endpoint|file|path|dir|name|names|field|header|env|var|ttl|expiry|expires|expires_at|expires_in|prefix)$/;

/** Secret-sounding variable names (after camelCase and `-`/`.` became `_`, lower case). */
const SECRET_NAME =
  /(?:^|_)(?:token|secret|secrets|credential|credentials|apikey|api_key|accesstoken|authtoken|refreshtoken|secretkey|privatekey|accesskey|clientsecret|signingkey|encryptionkey|masterkey)(?:_|$)|^[a-z0-9]+(?:_[a-z0-9]+)*_(?:key|auth)(?:_|$)/;

const PASSWORD_NAME = /(?:^|_)(?:password|passwd|pwd|passphrase|pass|passwort|mot_de_passe|contrasena)(?:_|$)|(?:password|passwd)$/;

/** The rules, most specific first. */
export const SECRET_RULES: SecretRule[] = [
  // ---- Key material ----
  {
    kind: 'private-key',
    description: 'PEM / OpenSSH / PGP private key block (also inside JSON with \\n escapes)',
    example: '-----BEGIN … PRIVATE KEY-----',
    screen: /PRIVATE KEY/,
    pattern: /-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----|$)/g,
    hints: ['PRIVATE KEY'],
  },
  {
    kind: 'age-secret-key',
    description: 'age encryption secret key',
    example: 'AGE-SECRET-KEY-1',
    pattern: /(?<![A-Za-z0-9])AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}(?![A-Za-z0-9])/g,
  },
  {
    kind: 'gcp-private-key-id',
    description: 'Google Cloud service-account key id (the key itself is a private-key block)',
    example: '"private_key_id": "…"',
    pattern: /"private_key_id"\s{0,4}:\s{0,4}"([a-f0-9]{40})"/g,
    secret: [1],
  },

  // ---- AI providers (Anthropic and OpenRouter before OpenAI: all start with `sk-`) ----
  {
    kind: 'anthropic-key',
    description: 'Anthropic API / admin key',
    example: 'sk-ant-api03-',
    pattern: /(?<![A-Za-z0-9])sk-ant-[A-Za-z0-9_-]{20,}/g,
  },
  {
    kind: 'openrouter-key',
    description: 'OpenRouter API key',
    example: 'sk-or-v1-',
    pattern: /(?<![A-Za-z0-9])sk-or-v1-[a-f0-9]{64}(?![A-Za-z0-9])/g,
  },
  {
    kind: 'openai-key',
    description: 'OpenAI API key (user, project, service account, admin)',
    example: 'sk-proj-, sk-',
    pattern: /(?<![A-Za-z0-9])sk-(?:(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,}|(?=[A-Za-z0-9_-]{0,200}\d)[A-Za-z0-9_-]{20,})/g,
  },
  { kind: 'groq-key', description: 'Groq API key', example: 'gsk_', pattern: /(?<![A-Za-z0-9])gsk_[A-Za-z0-9]{48,}/g },
  { kind: 'xai-key', description: 'xAI (Grok) API key', example: 'xai-', pattern: /(?<![A-Za-z0-9])xai-[A-Za-z0-9]{70,}/g },
  { kind: 'perplexity-key', description: 'Perplexity API key', example: 'pplx-', pattern: /(?<![A-Za-z0-9])pplx-[A-Za-z0-9]{40,}/g },
  {
    kind: 'replicate-token',
    description: 'Replicate API token',
    example: 'r8_',
    pattern: /(?<![A-Za-z0-9])r8_[A-Za-z0-9]{37}(?![A-Za-z0-9])/g,
  },
  {
    kind: 'huggingface-token',
    description: 'Hugging Face user / org token',
    example: 'hf_, api_org_',
    pattern: /(?<![A-Za-z0-9])(?:hf_[A-Za-z0-9]{34,}|api_org_[A-Za-z0-9]{34,})/g,
  },

  // ---- Code hosting and package registries ----
  {
    kind: 'github-pat',
    description: 'GitHub personal access token (classic)',
    example: 'ghp_',
    pattern: /(?<![A-Za-z0-9])ghp_[A-Za-z0-9]{36,}/g,
  },
  {
    kind: 'github-fine-grained-pat',
    description: 'GitHub fine-grained personal access token',
    example: 'github_pat_',
    pattern: /(?<![A-Za-z0-9])github_pat_[A-Za-z0-9_]{50,}/g,
  },
  {
    kind: 'github-oauth-token',
    description: 'GitHub OAuth access token',
    example: 'gho_',
    pattern: /(?<![A-Za-z0-9])gho_[A-Za-z0-9]{36,}/g,
  },
  {
    kind: 'github-app-token',
    description: 'GitHub App user-to-server / installation token',
    example: 'ghu_, ghs_',
    pattern: /(?<![A-Za-z0-9])gh[us]_[A-Za-z0-9]{36,}/g,
  },
  { kind: 'github-refresh-token', description: 'GitHub refresh token', example: 'ghr_', pattern: /(?<![A-Za-z0-9])ghr_[A-Za-z0-9]{36,}/g },
  {
    kind: 'gitlab-pat',
    description: 'GitLab personal / project / group access token',
    example: 'glpat-',
    pattern: /(?<![A-Za-z0-9])glpat-[A-Za-z0-9_-]{20,}(?:\.\d{2}\.[A-Za-z0-9_-]{6,})?/g,
  },
  {
    kind: 'gitlab-token',
    description: 'GitLab deploy, runner, trigger, CI job, OAuth, feed, incoming-mail and agent tokens',
    example: 'gldt-, glrt-, glptt-, glcbt-, gloas-, glft-, glimt-, glagent-, GR1348941',
    pattern:
      /(?<![A-Za-z0-9])(?:(?:gldt|glrt|glptt|glcbt|gloas|glsoat|glffct|glft|glimt|glagent)-[A-Za-z0-9_-]{20,}(?:\.\d{2}\.[A-Za-z0-9_-]{6,})?|GR1348941[A-Za-z0-9_-]{20,})/g,
  },
  { kind: 'npm-token', description: 'npm access token', example: 'npm_', pattern: /(?<![A-Za-z0-9])npm_[A-Za-z0-9]{36,}/g },
  {
    kind: 'npmrc-auth',
    description: '.npmrc / .yarnrc credentials',
    example: '_authToken=, _auth=, _password=',
    screen: /_auth|_password|npmAuthToken/,
    pattern: /(?<![A-Za-z0-9])(_authToken|_auth|_password|npmAuthToken)["']?[ \t]{0,4}[=:][ \t]{0,4}["']?(?!\$\{)([^\s"']{8,})/g,
    secret: [2],
  },
  {
    kind: 'pypi-token',
    description: 'PyPI / TestPyPI upload token',
    example: 'pypi-AgE',
    pattern: /(?<![A-Za-z0-9])pypi-AgE[A-Za-z0-9_-]{50,}/g,
  },
  {
    kind: 'rubygems-key',
    description: 'RubyGems API key',
    example: 'rubygems_',
    pattern: /(?<![A-Za-z0-9])rubygems_[a-f0-9]{48}(?![A-Za-z0-9])/g,
  },
  {
    kind: 'docker-hub-pat',
    description: 'Docker Hub personal access token',
    example: 'dckr_pat_',
    pattern: /(?<![A-Za-z0-9])dckr_pat_[A-Za-z0-9_-]{27,}/g,
  },
  {
    kind: 'docker-config-auth',
    description: 'Docker config.json registry credentials',
    example: '"auth": "…", "identitytoken": "…"',
    screen: /"(?:auth|identitytoken|registrytoken)"/,
    pattern: /"(auth|identitytoken|registrytoken)"\s{0,4}:\s{0,4}"([A-Za-z0-9+/=._-]{8,})"/g,
    secret: [2],
  },
  {
    kind: 'sourcegraph-token',
    description: 'Sourcegraph access token',
    example: 'sgp_',
    pattern: /(?<![A-Za-z0-9])sgp_(?:[a-f0-9]{16}_)?[a-f0-9]{40}(?![A-Za-z0-9])/g,
  },
  {
    kind: 'postman-key',
    description: 'Postman API key',
    example: 'PMAK-',
    pattern: /(?<![A-Za-z0-9])PMAK-[a-f0-9]{24}-[a-f0-9]{34}(?![A-Za-z0-9])/gi,
  },

  // ---- Cloud providers ----
  {
    kind: 'aws-access-key-id',
    description: 'AWS access key id (long-term, temporary, role, user, …)',
    example: 'AKIA, ASIA, ABIA, ACCA, AGPA, AIDA, AROA, AIPA, ANPA, ANVA, APKA',
    pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16}(?![A-Za-z0-9])/g,
  },
  {
    kind: 'aws-secret-access-key',
    description: 'AWS secret access key, by its name (env, credentials file, `aws configure`, JSON)',
    example: 'aws_secret_access_key = …, AWS Secret Access Key [None]: …, the secret access key is …',
    screen: /secret[ _]?access/i,
    pattern:
      /((?:aws[ _]?)?secret[ _]?access[ _]?key(?: \[[^\]\n]{0,40}\])?)(?:["']?[ \t]{0,4}[:=]|[ \t]+(?:is|was))[ \t]{0,4}["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/gi,
    secret: [2],
  },
  {
    kind: 'google-api-key',
    description: 'Google / Firebase API key',
    example: 'AIza',
    pattern: /(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9])/g,
  },
  {
    kind: 'google-oauth-client-secret',
    description: 'Google OAuth client secret',
    example: 'GOCSPX-',
    pattern: /(?<![A-Za-z0-9])GOCSPX-[A-Za-z0-9_-]{28,}/g,
  },
  {
    kind: 'google-oauth-token',
    description: 'Google OAuth access / refresh token',
    example: 'ya29., 1//0',
    pattern: /(?<![A-Za-z0-9./])(?:ya29\.[A-Za-z0-9_-]{30,}|1\/\/0[A-Za-z0-9_-]{40,})/g,
  },
  {
    kind: 'azure-storage-key',
    description: 'Azure storage account key / shared access key in a connection string',
    example: 'AccountKey=, SharedAccessKey=',
    screen: /AccountKey|SharedAccessKey|PrimaryKey|SecondaryKey/i,
    pattern: /(?<![A-Za-z0-9])(AccountKey|SharedAccessKey|PrimaryKey|SecondaryKey)[ \t]{0,4}=[ \t]{0,4}([A-Za-z0-9+/]{20,}={0,2})/gi,
    secret: [2],
  },
  {
    kind: 'azure-sas-token',
    description: 'Azure shared access signature',
    example: '?sv=…&sig=…',
    screen: /[?&]sig=/,
    pattern: /[?&]sig=([A-Za-z0-9%+/=]{20,})/g,
    secret: [1],
  },
  {
    kind: 'azure-ad-client-secret',
    description: 'Azure AD (Entra ID) application client secret',
    example: 'xxx8Q~',
    screen: /Q~/,
    pattern: /(?<![A-Za-z0-9.~])[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9])/g,
  },
  {
    kind: 'digitalocean-token',
    description: 'DigitalOcean personal access / OAuth / refresh token',
    example: 'dop_v1_, doo_v1_, dor_v1_',
    pattern: /(?<![A-Za-z0-9])do[opr]_v1_[a-f0-9]{64}(?![A-Za-z0-9])/g,
  },
  { kind: 'heroku-key', description: 'Heroku API key (new format)', example: 'HRKU-', pattern: /(?<![A-Za-z0-9])HRKU-[A-Za-z0-9_-]{40,}/g },
  {
    kind: 'heroku-legacy-key',
    description: 'Heroku API key (UUID), by context',
    example: 'HEROKU_API_KEY=<uuid>',
    screen: /heroku/i,
    pattern: /(heroku[\w .:="'-]{0,40}?)(?<![A-Za-z0-9])([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?![A-Za-z0-9])/gi,
    secret: [2],
  },
  {
    kind: 'cloudflare-token',
    description: 'Cloudflare API token / global API key, by context; origin CA key',
    example: 'CLOUDFLARE_API_TOKEN=…, v1.0-',
    screen: /cloudflare/i,
    pattern:
      /(cloudflare[\w .:="'-]{0,40}?)(?<![A-Za-z0-9_-])([A-Za-z0-9_-]{40}|[a-f0-9]{37})(?![A-Za-z0-9_-])|(?<![A-Za-z0-9])v1\.0-[a-f0-9]{24}-[a-f0-9]{146}(?![A-Za-z0-9])/gi,
    secret: [2],
  },
  {
    kind: 'databricks-token',
    description: 'Databricks personal access token',
    example: 'dapi',
    pattern: /(?<![A-Za-z0-9])dapi[a-f0-9]{32}(?:-\d)?(?![A-Za-z0-9])/g,
  },
  {
    kind: 'alibaba-access-key-id',
    description: 'Alibaba Cloud access key id',
    example: 'LTAI',
    pattern: /(?<![A-Za-z0-9])LTAI[A-Za-z0-9]{20}(?![A-Za-z0-9])/g,
  },
  {
    kind: 'fly-token',
    description: 'Fly.io access token',
    example: 'FlyV1 fm2_, fo1_',
    screen: /FlyV1 fm/,
    pattern: /(?:(?<![A-Za-z0-9])FlyV1 fm\d_[A-Za-z0-9+/=_-]{40,}|(?<![A-Za-z0-9])fo1_[A-Za-z0-9_-]{39,})/g,
  },
  {
    kind: 'vercel-token',
    description: 'Vercel access token',
    example: 'vcp_, vci_, vca_',
    pattern: /(?<![A-Za-z0-9])vc[pira]_[A-Za-z0-9]{24,}/g,
  },
  {
    kind: 'netlify-token',
    description: 'Netlify personal access token',
    example: 'nfp_',
    pattern: /(?<![A-Za-z0-9])nfp_[A-Za-z0-9]{36,}/g,
  },
  {
    kind: 'supabase-token',
    description: 'Supabase access / secret key',
    example: 'sbp_, sb_secret_',
    pattern: /(?<![A-Za-z0-9])(?:sbp_[a-f0-9]{40}|sb_secret_[A-Za-z0-9_-]{20,})/g,
  },
  {
    kind: 'planetscale-token',
    description: 'PlanetScale service token / password',
    example: 'pscale_tkn_, pscale_pw_',
    screen: /pscale_/,
    pattern: /(?<![A-Za-z0-9])pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{32,}/g,
  },
  {
    kind: 'terraform-cloud-token',
    description: 'Terraform Cloud / HCP API token',
    example: '….atlasv1.',
    screen: /\.atlasv1\./,
    pattern: /(?<![A-Za-z0-9])[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,}/g,
    hints: ['.atlasv1.'],
  },

  // ---- Secrets managers and infrastructure ----
  {
    kind: 'vault-token',
    description: 'HashiCorp Vault service / batch / recovery token',
    example: 'hvs., hvb., hvr.',
    pattern: /(?<![A-Za-z0-9.])hv[sbr]\.[A-Za-z0-9_-]{24,}/g,
  },
  {
    kind: 'doppler-token',
    description: 'Doppler token',
    example: 'dp.pt., dp.st., dp.sa.',
    pattern: /(?<![A-Za-z0-9.])dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}/g,
  },
  {
    kind: 'pulumi-token',
    description: 'Pulumi access token',
    example: 'pul-',
    pattern: /(?<![A-Za-z0-9])pul-[a-f0-9]{40}(?![A-Za-z0-9])/g,
  },
  {
    kind: 'onepassword-token',
    description: '1Password service account token',
    example: 'ops_eyJ',
    screen: /ops_eyJ/,
    pattern: /(?<![A-Za-z0-9])ops_eyJ[A-Za-z0-9+/=_-]{100,}/g,
  },
  {
    kind: 'tailscale-key',
    description: 'Tailscale auth / API key',
    example: 'tskey-',
    pattern: /(?<![A-Za-z0-9])tskey-[a-z]+-[A-Za-z0-9]{10,}-[A-Za-z0-9]{20,}/g,
  },
  {
    kind: 'grafana-token',
    description: 'Grafana Cloud token / service-account token / API key',
    example: 'glc_, glsa_, eyJrIjoi',
    screen: /glc_|eyJrIjoi/,
    pattern: /(?<![A-Za-z0-9])(?:glc_[A-Za-z0-9+/]{32,}={0,2}|glsa_[A-Za-z0-9]{32}_[a-f0-9]{8}|eyJrIjoi[A-Za-z0-9+/]{50,}={0,2})/g,
  },
  {
    kind: 'new-relic-key',
    description: 'New Relic user / insights / browser / ingest key',
    example: 'NRAK-, NRII-, NRJS-, …NRAL',
    pattern: /(?<![A-Za-z0-9])(?:NR(?:AK|II|JS|AA|IQ)-[A-Za-z0-9]{20,}|[a-f0-9]{36}NRAL)(?![A-Za-z0-9])/g,
    hints: ['NRAK-', 'NRII-', 'NRJS-', 'NRAA-', 'NRIQ-', 'NRAL'],
  },
  {
    kind: 'sentry-dsn',
    description: 'Sentry DSN key',
    example: 'https://<key>@o1.ingest.sentry.io/1',
    screen: /sentry/,
    pattern: /(?<![A-Za-z0-9])https?:\/\/([a-f0-9]{32})(?::[a-f0-9]{32})?@[A-Za-z0-9.-]{0,100}sentry[A-Za-z0-9.-]{0,100}/g,
    hints: ['sentry'],
    secret: [1],
  },
  {
    kind: 'sentry-token',
    description: 'Sentry organization / user auth token',
    example: 'sntrys_, sntryu_',
    screen: /sntrys_/,
    pattern: /(?<![A-Za-z0-9])(?:sntrys_[A-Za-z0-9+/=_]{50,}|sntryu_[a-f0-9]{64}(?![A-Za-z0-9]))/g,
  },
  {
    kind: 'dynatrace-token',
    description: 'Dynatrace API token',
    example: 'dt0c01.',
    pattern: /(?<![A-Za-z0-9])dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}(?![A-Za-z0-9])/g,
  },
  {
    kind: 'okta-token',
    description: 'Okta API token, by context',
    example: 'OKTA_API_TOKEN=00…',
    pattern: /(okta[\w .:="'-]{0,40}?)(?<![A-Za-z0-9])(00[A-Za-z0-9_-]{40})(?![A-Za-z0-9])/gi,
    secret: [2],
  },

  // ---- Payments, messaging, SaaS ----
  {
    kind: 'stripe-key',
    description: 'Stripe secret / restricted key (live and test)',
    example: 'sk_live_, rk_live_, sk_test_, rk_test_',
    pattern: /(?<![A-Za-z0-9])[sr]k_(?:live|test)_[A-Za-z0-9]{16,}/g,
  },
  {
    kind: 'stripe-webhook-secret',
    description: 'Stripe webhook signing secret',
    example: 'whsec_',
    screen: /whsec_/,
    pattern: /(?<![A-Za-z0-9])whsec_[A-Za-z0-9+/]{24,}/g,
  },
  {
    kind: 'square-token',
    description: 'Square access token / OAuth secret',
    example: 'EAAA, sq0atp-, sq0csp-',
    pattern: /(?<![A-Za-z0-9])(?:EAAA[A-Za-z0-9_-]{60}(?![A-Za-z0-9])|sq0(?:atp|csp|idp)-[A-Za-z0-9_-]{22,})/g,
  },
  {
    kind: 'shopify-token',
    description: 'Shopify access / shared secret / custom / private app token',
    example: 'shpat_, shpss_, shpca_, shppa_',
    pattern: /(?<![A-Za-z0-9])shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}(?![A-Za-z0-9])/g,
  },
  {
    kind: 'twilio-api-key',
    description: 'Twilio API key SID and account SID',
    example: 'SK…, AC… (32 hex)',
    pattern: /(?<![A-Za-z0-9])(?:SK|AC)[0-9a-f]{32}(?![A-Za-z0-9])/g,
  },
  {
    kind: 'twilio-auth-token',
    description: 'Twilio auth token (32 hex), by context',
    example: 'TWILIO_AUTH_TOKEN=…, twilio … <32 hex>',
    pattern: /(twilio[^\n]{0,80}?|auth[_ ]?token[\w .:="'-]{0,20}?)(?<![A-Za-z0-9])([a-f0-9]{32})(?![A-Za-z0-9])/gi,
    secret: [2],
  },
  {
    kind: 'sendgrid-key',
    description: 'SendGrid API key',
    example: 'SG.',
    pattern: /(?<![A-Za-z0-9])SG\.[A-Za-z0-9_-]{20,24}\.[A-Za-z0-9_-]{39,50}(?![A-Za-z0-9])/g,
  },
  {
    kind: 'mailgun-key',
    description: 'Mailgun API key (legacy and current)',
    example: 'key-, <32 hex>-<8 hex>-<8 hex>',
    pattern: /(?<![A-Za-z0-9])(?:key-[0-9a-f]{32}|[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8})(?![A-Za-z0-9])/g,
    hints: ['key-', 'mailgun'],
  },
  {
    kind: 'mailchimp-key',
    description: 'Mailchimp API key',
    example: '<32 hex>-us1',
    pattern: /(?<![A-Za-z0-9])[0-9a-f]{32}-us[0-9]{1,2}(?![A-Za-z0-9])/g,
    hints: ['-us'],
  },
  {
    kind: 'postmark-token',
    description: 'Postmark server token, by context',
    example: 'X-Postmark-Server-Token: <uuid>',
    screen: /postmark/i,
    pattern: /(postmark[\w .:="'-]{0,40}?)(?<![A-Za-z0-9])([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?![A-Za-z0-9])/gi,
    secret: [2],
  },
  {
    kind: 'slack-token',
    description: 'Slack bot / user / workspace / config / refresh token',
    example: 'xoxb-, xoxp-, xoxa-, xoxe.xoxp-, xoxe-',
    screen: /xox/,
    pattern: /(?<![A-Za-z0-9])xox(?:[abposr]|e(?:\.xox[bp])?)-[A-Za-z0-9-]{10,}/g,
  },
  {
    kind: 'slack-app-token',
    description: 'Slack app-level token',
    example: 'xapp-',
    pattern: /(?<![A-Za-z0-9])xapp-\d-[A-Za-z0-9-]{10,}/g,
  },
  {
    kind: 'slack-webhook',
    description: 'Slack incoming webhook / workflow URL',
    example: 'https://hooks.slack.com/services/T…/B…/…',
    screen: /hooks\.slack\.com\//,
    pattern: /(?<![A-Za-z0-9])https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/([A-Za-z0-9_/+-]{20,})/g,
    secret: [1],
  },
  {
    kind: 'discord-webhook',
    description: 'Discord webhook URL',
    example: 'https://discord.com/api/webhooks/…',
    pattern: /(?<![A-Za-z0-9])https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d{5,30}\/([A-Za-z0-9_-]{40,})/g,
    secret: [1],
  },
  {
    kind: 'discord-bot-token',
    description: 'Discord bot token',
    example: 'M…/N….…. (three dot-separated parts)',
    pattern: /(?<![A-Za-z0-9.])[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9.])/g,
  },
  {
    kind: 'telegram-bot-token',
    description: 'Telegram bot token',
    example: '<bot id>:AA',
    pattern: /(?:(?<![A-Za-z0-9:])|(?<=\/bot))\d{8,10}:AA[A-Za-z0-9_-]{32,34}(?![A-Za-z0-9])/g,
  },
  {
    kind: 'linear-key',
    description: 'Linear API key / OAuth token',
    example: 'lin_api_, lin_oauth_',
    pattern: /(?<![A-Za-z0-9])lin_(?:api|oauth)_[A-Za-z0-9]{40,}/g,
  },
  {
    kind: 'notion-token',
    description: 'Notion integration token',
    example: 'secret_, ntn_',
    pattern: /(?<![A-Za-z0-9])(?:secret_[A-Za-z0-9]{43}|ntn_[0-9]{11}[A-Za-z0-9]{35})(?![A-Za-z0-9])/g,
  },
  {
    kind: 'atlassian-token',
    description: 'Atlassian (Jira, Confluence, Bitbucket) API token',
    example: 'ATATT3, ATCTT3, ATBB',
    screen: /ATATT3|ATCTT3/,
    pattern: /(?<![A-Za-z0-9])(?:AT[AC]TT3[A-Za-z0-9_=+/-]{100,}|ATBB[A-Za-z0-9]{28,})/g,
  },
  {
    kind: 'airtable-token',
    description: 'Airtable personal access token',
    example: 'pat….<64 hex>',
    pattern: /(?<![A-Za-z0-9])pat[A-Za-z0-9]{14}\.[a-f0-9]{64}(?![A-Za-z0-9])/g,
  },
  {
    kind: 'figma-token',
    description: 'Figma personal access token',
    example: 'figd_',
    pattern: /(?<![A-Za-z0-9])figd_[A-Za-z0-9_-]{40,}/g,
  },
  {
    kind: 'facebook-token',
    description: 'Meta / Facebook access token',
    example: 'EAAB, EAAG',
    pattern: /(?<![A-Za-z0-9])EAA[BCDGI][A-Za-z0-9]{80,}/g,
  },

  // ---- Context: tokens in headers and URLs ----
  {
    kind: 'jwt',
    description: 'JSON Web Token',
    example: 'eyJ….eyJ….…',
    screen: /eyJ/,
    pattern: /(?<![A-Za-z0-9])eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g,
  },
  {
    kind: 'bearer-token',
    description: 'Bearer / Token credential in an Authorization header or a command line',
    example: 'Authorization: Bearer …',
    screen: /Bearer|Token/,
    pattern: /\b(Bearer|Token)[ \t]+(?!\[REDACTED)([A-Za-z0-9._~+/-]{16,}=*)/g,
    secret: [2],
    // Prose about a thing called Token: lower-case words, or capitalised words and short numbers
    // joined by `/`, `-`, `.` or `_` ("the Token Program/Token-2022 accounts").
    unless: /^(?:[a-z_.-]+|(?:[A-Z]?[a-z]+|\d{1,4})(?:[/._-](?:[A-Z]?[a-z]+|\d{1,4}))*)$/,
  },
  {
    kind: 'basic-auth',
    description: 'Basic credentials in an Authorization header',
    example: 'Authorization: Basic …',
    screen: /Basic/,
    pattern: /\bBasic[ \t]+(?!\[REDACTED)([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/g,
    secret: [1],
    unless: /^[A-Z]?[a-z]+$/,
  },
  {
    kind: 'curl-credentials',
    description: 'user:password given to curl -u / --user',
    example: 'curl -u user:…',
    screen: /-u/,
    pattern: /(?<![\w-])(?:-u|--user)[ \t]+["']?[^\s:"']{1,64}:([^\s"'@]{4,})/g,
    secret: [1],
  },
  {
    kind: 'database-url',
    description: 'password in a database / broker connection string',
    example: 'postgres://user:…@, mysql://, mongodb+srv://, redis://:…@, amqp://',
    screen: /:\/\//,
    pattern:
      /\b((?:postgres(?:ql)?|mysql|mariadb|mssql|sqlserver|mongodb(?:\+srv)?|redis|rediss|amqps?|clickhouse|cockroachdb|couchdb|neo4j(?:\+s)?|nats|kafka|jdbc:[a-z]{2,20}):\/\/[^\s:@/?#]{0,128}:)(?!\[REDACTED)([^\s@/?#]{1,256})@/gi,
    hints: ['://'],
    secret: [2],
  },
  {
    kind: 'url-password',
    description: 'password in any other URL (user:password@host)',
    example: 'https://user:…@host',
    screen: /:\/\//,
    pattern: /\b([a-z][a-z0-9+.-]{0,30}:\/\/[^\s:@/?#]{1,128}:)(?!\[REDACTED)([^\s@/?#]{1,256})@/gi,
    hints: ['://'],
    secret: [2],
  },

  // ---- Generic assignments (last: specific kinds above win) ----
  {
    kind: 'cli-password-flag',
    description: 'a password or token passed as a command-line flag',
    example: '--password …, --token …',
    screen: /-(?:passw|token|api-?key|auth-token|secret|client-secret)/i,
    pattern:
      /(?<![\w-])(--?(?:password|passwd|token|api-key|apikey|auth-token|secret|client-secret))[ \t]+(?:"([^"\n]{4,256})"|'([^'\n]{4,256})'|(?![-[])([^\s"'`]{4,}))/gi,
    secret: [2, 3, 4],
    unless: REFERENCE,
  },
  {
    kind: 'password-assignment',
    description: 'password=…, passwd: …, PGPASSWORD=…, "password": "…" (also in ODBC/JDBC strings)',
    example: 'password=, passwd:, *_PASSWORD=',
    screen: /pass|pwd|contrasena/i,
    pattern: assignment('pass|pwd|passwort|mot_de_passe|contrasena'),
    secret: [2, 3, 4],
    unless: REFERENCE,
    name: { group: 1, pattern: PASSWORD_NAME },
  },
  {
    kind: 'secret-assignment',
    description: 'a secret-named variable: *_KEY=, *_TOKEN:, *_SECRET=, apiKey: …, "client_secret": "…"',
    example: '*_KEY=, *_TOKEN:, *_SECRET=, credentials=',
    screen: /key|token|secret|credential|auth/i,
    pattern: assignment('key|token|secret|credential|auth'),
    secret: [2, 3, 4],
    unless: new RegExp(`${REFERENCE.source}|${PLAIN_WORD.source}|${PATH_VALUE.source}|^.{1,7}$`, 'i'),
    name: { group: 1, pattern: SECRET_NAME, unless: NOT_SECRET_NAME },
  },
  {
    // After the two above, for what they leave as prose: a value that is one plain word. Set to an
    // upper-case variable with `=` and no space (a shell line, a .env file), or alone at the end
    // of a `NAME: value` line (YAML, a printed environment; an item's provenance may follow),
    // even a plain word is the secret.
    kind: 'env-secret',
    description: 'a secret-named environment variable set to a plain word: DB_PASSWORD=…, GITHUB_TOKEN=…, API_SECRET: … (line end)',
    example: 'NAME_TOKEN=word, NAME_PASSWORD: word',
    screen: /key|token|secret|credential|auth|pass|pwd|contrasena/i,
    pattern: new RegExp(
      String.raw`[:=](?<=(?<![A-Za-z0-9_.-])([A-Z][A-Z0-9_]{1,72})[:=])` +
        String.raw`(?:(?<==)(?:"([^"\n]{4,512})"|'([^'\n]{4,512})'|(?!\[REDACTED)([^\s"'\x60,;()<>{}[\]&|]{4,512})(?![^\s"'\x60,;)<>}\]&|]))|(?<=:)[ \t]{0,4}(?!\[REDACTED)([^\s"'\x60,;()<>{}[\]&|]{4,512})(?=[ \t]*(?:[\r\n]|$|\[from:)))`,
      'g',
    ),
    secret: [2, 3, 4, 5],
    unless: new RegExp(`${REFERENCE.source}|${PATH_VALUE.source}|^\\d{1,6}$`, 'i'),
    name: { group: 1, pattern: new RegExp(`${SECRET_NAME.source}|${PASSWORD_NAME.source}`), unless: NOT_SECRET_NAME },
  },
];

/**
 * A variable name as the name rules compare it: camelCase split, `-` and `.` as `_`, lower case,
 * leading punctuation dropped (`--apiKey` → `api_key`).
 */
export function normalizeSecretName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[-.]+/g, '_')
    .replace(/^_+/, '')
    .toLowerCase();
}
