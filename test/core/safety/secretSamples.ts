/**
 * Fake secrets for the redaction tests, built at run time from a seeded generator so this
 * repository holds no string that looks like a real credential (secret scanners stay quiet,
 * and no sample can be a leaked key).
 */

export const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const LOWER = 'abcdefghijklmnopqrstuvwxyz';
export const DIGITS = '0123456789';
export const ALNUM = UPPER + LOWER + DIGITS;
export const HEX = '0123456789abcdef';
export const URLSAFE = ALNUM + '_-';
export const B64 = ALNUM + '+/';

let seed = 7;

/** `n` characters drawn from `alphabet` (deterministic across runs); always holds a digit when the alphabet does. */
export function fake(alphabet: string, n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    out += alphabet[(seed >>> 8) % alphabet.length];
  }
  const digit = [...alphabet].find((c) => c >= '0' && c <= '9');
  return digit && !/\d/.test(out) && n > 1 ? digit + out.slice(1) : out;
}

/** Joins parts: samples are assembled from pieces, never written whole. */
export const cat = (...parts: string[]): string => parts.join('');

/** A sample: the text as it would appear in a conversation, and the part that must disappear. */
export interface SecretSample {
  kind: string;
  text: string;
  secret: string;
}

function sample(kind: string, make: () => { text: string; secret: string }): SecretSample {
  return { kind, ...make() };
}

const uuid = () => [fake(HEX, 8), fake(HEX, 4), fake(HEX, 4), fake(HEX, 4), fake(HEX, 12)].join('-');

/** At least one realistic sample per rule kind. */
export function secretSamples(): SecretSample[] {
  return [
    sample('private-key', () => {
      const body = fake(B64, 64);
      return {
        text: cat('key:\n-----BEGIN RSA ', 'PRIVATE KEY-----\n', body, '\n-----END RSA ', 'PRIVATE KEY-----\nthanks'),
        secret: body,
      };
    }),
    sample('private-key', () => {
      const body = fake(B64, 48);
      return {
        text: cat(
          '{"type": "service_account", "private_key": "-----BEGIN ',
          'PRIVATE KEY-----\\n',
          body,
          '\\n-----END ',
          'PRIVATE KEY-----\\n"}',
        ),
        secret: body,
      };
    }),
    sample('age-secret-key', () => {
      const s = cat('AGE-SECRET-KEY-1', fake('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 58));
      return { text: `# created\n${s}\n`, secret: s };
    }),
    sample('gcp-private-key-id', () => {
      const s = fake(HEX, 40);
      return { text: cat('{"private_key_id": "', s, '", "client_email": "bot@proj.iam.gserviceaccount.com"}'), secret: s };
    }),
    sample('anthropic-key', () => {
      const s = cat('sk-ant-', 'api03-', fake(URLSAFE, 93));
      return { text: `export ANTHROPIC=${s}`, secret: s };
    }),
    sample('openrouter-key', () => {
      const s = cat('sk-or-', 'v1-', fake(HEX, 64));
      return { text: `use ${s} for routing`, secret: s };
    }),
    sample('openai-key', () => {
      const s = cat('sk-', 'proj-', fake(URLSAFE, 120));
      return { text: `key ${s} here`, secret: s };
    }),
    sample('openai-key', () => {
      const s = cat('sk-', fake(ALNUM, 48));
      return { text: `OPENAI ${s}`, secret: s };
    }),
    sample('groq-key', () => {
      const s = cat('gsk_', fake(ALNUM, 52));
      return { text: `groq: ${s}`, secret: s };
    }),
    sample('xai-key', () => {
      const s = cat('xai-', fake(ALNUM, 80));
      return { text: `the grok key is ${s}`, secret: s };
    }),
    sample('perplexity-key', () => {
      const s = cat('pplx-', fake(ALNUM, 48));
      return { text: `pplx ${s}`, secret: s };
    }),
    sample('replicate-token', () => {
      const s = cat('r8_', fake(ALNUM, 37));
      return { text: `replicate ${s} ok`, secret: s };
    }),
    sample('huggingface-token', () => {
      const s = cat('hf_', fake(ALNUM, 34));
      return { text: `huggingface-cli login --token ${s}`, secret: s };
    }),
    sample('github-pat', () => {
      const s = cat('ghp_', fake(ALNUM, 36));
      return { text: `git clone https://${s}@github.com/o/r`, secret: s };
    }),
    sample('github-fine-grained-pat', () => {
      const s = cat('github_', 'pat_', fake(ALNUM, 22), '_', fake(ALNUM, 59));
      return { text: `token ${s}`, secret: s };
    }),
    sample('github-oauth-token', () => {
      const s = cat('gho_', fake(ALNUM, 36));
      return { text: `oauth ${s}`, secret: s };
    }),
    sample('github-app-token', () => {
      const s = cat('ghs_', fake(ALNUM, 36));
      return { text: `installation ${s}`, secret: s };
    }),
    sample('github-refresh-token', () => {
      const s = cat('ghr_', fake(ALNUM, 76));
      return { text: `refresh ${s}`, secret: s };
    }),
    sample('gitlab-pat', () => {
      const s = cat('glpat-', fake(URLSAFE, 20));
      return { text: `curl --header "PRIVATE-TOKEN: ${s}" https://gitlab.example.com/api/v4/projects`, secret: s };
    }),
    sample('gitlab-token', () => {
      const s = cat('glrt-', fake(URLSAFE, 20));
      return { text: `gitlab-runner register --token ${s}`, secret: s };
    }),
    sample('gitlab-token', () => {
      const s = cat('gldt-', fake(URLSAFE, 20));
      return { text: `deploy token ${s}`, secret: s };
    }),
    sample('npm-token', () => {
      const s = cat('npm_', fake(ALNUM, 36));
      return { text: `npm token ${s}`, secret: s };
    }),
    sample('npmrc-auth', () => {
      const s = fake(B64, 24);
      return { text: `//registry.example.com/:_authToken=${s}`, secret: s };
    }),
    sample('pypi-token', () => {
      const s = cat('pypi-', 'AgEIcHlwaS5vcmc', fake(URLSAFE, 70));
      return { text: `twine upload -p ${s}`, secret: s };
    }),
    sample('rubygems-key', () => {
      const s = cat('rubygems_', fake(HEX, 48));
      return { text: `GEM_HOST ${s}`, secret: s };
    }),
    sample('docker-hub-pat', () => {
      const s = cat('dckr_', 'pat_', fake(URLSAFE, 27));
      return { text: `docker login -u me -p ${s}`, secret: s };
    }),
    sample('docker-config-auth', () => {
      const s = fake(B64, 28) + '==';
      return { text: `{"auths": {"ghcr.io": {"auth": "${s}"}}}`, secret: s };
    }),
    sample('sourcegraph-token', () => {
      const s = cat('sgp_', fake(HEX, 40));
      return { text: `src ${s}`, secret: s };
    }),
    sample('postman-key', () => {
      const s = cat('PMAK-', fake(HEX, 24), '-', fake(HEX, 34));
      return { text: `postman ${s}`, secret: s };
    }),
    sample('aws-access-key-id', () => {
      const s = cat('AKIA', fake(UPPER + DIGITS, 16));
      return { text: `aws ${s} ok`, secret: s };
    }),
    sample('aws-secret-access-key', () => {
      const s = fake(B64, 40);
      return { text: `[default]\naws_secret_access_key = ${s}\n`, secret: s };
    }),
    sample('aws-secret-access-key', () => {
      const s = fake(B64, 40);
      return { text: `$ aws configure\nAWS Secret Access Key [None]: ${s}\nDefault region name [None]: eu-west-1`, secret: s };
    }),
    sample('aws-secret-access-key', () => {
      const s = fake(B64, 40);
      return { text: `"SecretAccessKey": "${s}",`, secret: s };
    }),
    sample('aws-secret-access-key', () => {
      const s = fake(B64, 40);
      return { text: `The AWS secret access key is ${s} for the deploy user`, secret: s };
    }),
    sample('google-api-key', () => {
      const s = cat('AIza', fake(URLSAFE, 35));
      return { text: `maps key ${s}.`, secret: s };
    }),
    sample('google-oauth-client-secret', () => {
      const s = cat('GOCSPX-', fake(URLSAFE, 28));
      return { text: `"client_secret":"${s}"`, secret: s };
    }),
    sample('google-oauth-token', () => {
      const s = cat('ya29.', fake(URLSAFE, 60));
      return { text: `access ${s}`, secret: s };
    }),
    sample('azure-storage-key', () => {
      const s = fake(B64, 86) + '==';
      return { text: `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${s};EndpointSuffix=core.windows.net`, secret: s };
    }),
    sample('azure-sas-token', () => {
      const s = fake(ALNUM, 40) + '%3D';
      return { text: `https://acct.blob.core.windows.net/c/f?sv=2022-11-02&ss=b&sig=${s}`, secret: s };
    }),
    sample('azure-ad-client-secret', () => {
      const s = cat(fake(ALNUM, 3), '8Q~', fake(ALNUM, 34));
      return { text: `secret value: ${s} (expires 2027)`, secret: s };
    }),
    sample('digitalocean-token', () => {
      const s = cat('dop_', 'v1_', fake(HEX, 64));
      return { text: `doctl auth init -t ${s}`, secret: s };
    }),
    sample('heroku-key', () => {
      const s = cat('HRKU-', 'AA', fake(URLSAFE, 58));
      return { text: `heroku ${s}`, secret: s };
    }),
    sample('heroku-legacy-key', () => {
      const s = uuid();
      return { text: `heroku api key is ${s}`, secret: s };
    }),
    sample('cloudflare-token', () => {
      const s = fake(URLSAFE, 40);
      return { text: `Cloudflare API token: ${s}`, secret: s };
    }),
    sample('databricks-token', () => {
      const s = cat('dapi', fake(HEX, 32));
      return { text: `databricks configure --token ${s}`, secret: s };
    }),
    sample('alibaba-access-key-id', () => {
      const s = cat('LTAI', fake(ALNUM, 20));
      return { text: `aliyun ${s}`, secret: s };
    }),
    sample('fly-token', () => {
      const s = cat('fo1_', fake(URLSAFE, 43));
      return { text: `fly ${s}`, secret: s };
    }),
    sample('vercel-token', () => {
      const s = cat('vcp_', fake(ALNUM, 56));
      return { text: `vercel --token=${s}`, secret: s };
    }),
    sample('netlify-token', () => {
      const s = cat('nfp_', fake(ALNUM, 40));
      return { text: `netlify ${s}`, secret: s };
    }),
    sample('supabase-token', () => {
      const s = cat('sbp_', fake(HEX, 40));
      return { text: `supabase login ${s}`, secret: s };
    }),
    sample('planetscale-token', () => {
      const s = cat('pscale_', 'tkn_', fake(URLSAFE, 43));
      return { text: `pscale ${s}`, secret: s };
    }),
    sample('terraform-cloud-token', () => {
      const s = cat(fake(ALNUM, 14), '.atlasv1.', fake(URLSAFE, 67));
      return { text: `tfc ${s}`, secret: s };
    }),
    sample('vault-token', () => {
      const s = cat('hvs.', fake(URLSAFE, 90));
      return { text: `VAULT ${s}`, secret: s };
    }),
    sample('doppler-token', () => {
      const s = cat('dp.', 'pt.', fake(ALNUM, 43));
      return { text: `doppler ${s}`, secret: s };
    }),
    sample('pulumi-token', () => {
      const s = cat('pul-', fake(HEX, 40));
      return { text: `pulumi login ${s}`, secret: s };
    }),
    sample('onepassword-token', () => {
      const s = cat('ops_', 'eyJ', fake(B64, 120));
      return { text: `op ${s}`, secret: s };
    }),
    sample('tailscale-key', () => {
      const s = cat('tskey-', 'auth-', fake(ALNUM, 12), '-', fake(ALNUM, 30));
      return { text: `tailscale up --authkey ${s}`, secret: s };
    }),
    sample('grafana-token', () => {
      const s = cat('glsa_', fake(ALNUM, 32), '_', fake(HEX, 8));
      return { text: `grafana ${s}`, secret: s };
    }),
    sample('grafana-token', () => {
      const s = cat('glc_', fake(B64, 60), '=');
      return { text: `grafana cloud ${s}`, secret: s };
    }),
    sample('new-relic-key', () => {
      const s = cat('NRAK-', fake(UPPER + DIGITS, 27));
      return { text: `newrelic ${s}`, secret: s };
    }),
    sample('sentry-dsn', () => {
      const s = fake(HEX, 32);
      return { text: `Sentry.init({ dsn: "https://${s}@o123.ingest.sentry.io/456" })`, secret: s };
    }),
    sample('sentry-token', () => {
      const s = cat('sntrys_', 'eyJ', fake(B64, 80));
      return { text: `SENTRY ${s}`, secret: s };
    }),
    sample('dynatrace-token', () => {
      const s = cat('dt0c01.', fake(UPPER + DIGITS, 24), '.', fake(UPPER + DIGITS, 64));
      return { text: `dt ${s}`, secret: s };
    }),
    sample('okta-token', () => {
      const s = cat('00', fake(URLSAFE, 40));
      return { text: `okta api token ${s}`, secret: s };
    }),
    sample('stripe-key', () => {
      const s = cat('sk_', 'live_', fake(ALNUM, 24));
      return { text: `stripe.api_key = "${s}"`, secret: s };
    }),
    sample('stripe-key', () => {
      const s = cat('rk_', 'live_', fake(ALNUM, 24));
      return { text: `restricted ${s}`, secret: s };
    }),
    sample('stripe-webhook-secret', () => {
      const s = cat('whsec_', fake(ALNUM, 32));
      return { text: `endpoint secret ${s}`, secret: s };
    }),
    sample('square-token', () => {
      const s = cat('sq0', 'atp-', fake(URLSAFE, 22));
      return { text: `square ${s}`, secret: s };
    }),
    sample('shopify-token', () => {
      const s = cat('shpat_', fake(HEX, 32));
      return { text: `X-Shopify-Access-Token ${s}`, secret: s };
    }),
    sample('twilio-api-key', () => {
      const s = cat('SK', fake(HEX, 32));
      return { text: `twilio api key sid ${s}`, secret: s };
    }),
    sample('twilio-auth-token', () => {
      const s = fake(HEX, 32);
      return { text: `from twilio.rest import Client; client = Client(sid, "${s}")`, secret: s };
    }),
    sample('twilio-auth-token', () => {
      const s = fake(HEX, 32);
      return { text: `Twilio auth token is ${s}`, secret: s };
    }),
    sample('sendgrid-key', () => {
      const s = cat('SG.', fake(URLSAFE, 22), '.', fake(URLSAFE, 43));
      return { text: `sendgrid ${s}`, secret: s };
    }),
    sample('mailgun-key', () => {
      const s = cat('key-', fake(HEX, 32));
      return { text: `mailgun ${s}`, secret: s };
    }),
    sample('mailchimp-key', () => {
      const s = cat(fake(HEX, 32), '-us', '14');
      return { text: `mailchimp ${s}`, secret: s };
    }),
    sample('postmark-token', () => {
      const s = uuid();
      return { text: `X-Postmark-Server-Token: ${s}`, secret: s };
    }),
    sample('slack-token', () => {
      const s = cat('xox', 'b-', fake(DIGITS, 12), '-', fake(DIGITS, 13), '-', fake(ALNUM, 24));
      return { text: `SLACK ${s}`, secret: s };
    }),
    sample('slack-app-token', () => {
      const s = cat('xapp-', '1-', fake(UPPER + DIGITS, 11), '-', fake(DIGITS, 13), '-', fake(HEX, 64));
      return { text: `socket mode ${s}`, secret: s };
    }),
    sample('slack-webhook', () => {
      const s = cat('T', fake(UPPER + DIGITS, 8), '/B', fake(UPPER + DIGITS, 10), '/', fake(ALNUM, 24));
      return { text: `post to https://hooks.slack.com/services/${s}`, secret: s };
    }),
    sample('discord-webhook', () => {
      const s = fake(URLSAFE, 68);
      return { text: `https://discord.com/api/webhooks/${fake(DIGITS, 18)}/${s}`, secret: s };
    }),
    sample('discord-bot-token', () => {
      const s = cat('M', fake(ALNUM, 25), '.', fake(URLSAFE, 6), '.', fake(URLSAFE, 38));
      return { text: `bot.run("${s}")`, secret: s };
    }),
    sample('telegram-bot-token', () => {
      const s = cat(fake(DIGITS, 10), ':AA', fake(URLSAFE, 33));
      return { text: `curl https://api.telegram.org/bot${s}/getMe`, secret: s };
    }),
    sample('linear-key', () => {
      const s = cat('lin_', 'api_', fake(ALNUM, 40));
      return { text: `linear ${s}`, secret: s };
    }),
    sample('notion-token', () => {
      const s = cat('ntn_', fake(DIGITS, 11), fake(ALNUM, 35));
      return { text: `notion ${s}`, secret: s };
    }),
    sample('notion-token', () => {
      const s = cat('secret_', fake(ALNUM, 43));
      return { text: `notion legacy ${s}`, secret: s };
    }),
    sample('atlassian-token', () => {
      const s = cat('ATATT3', 'xFfGF0', fake(URLSAFE, 180));
      return { text: `jira ${s}`, secret: s };
    }),
    sample('airtable-token', () => {
      const s = cat('pat', fake(ALNUM, 14), '.', fake(HEX, 64));
      return { text: `airtable ${s}`, secret: s };
    }),
    sample('figma-token', () => {
      const s = cat('figd_', fake(URLSAFE, 40));
      return { text: `figma ${s}`, secret: s };
    }),
    sample('facebook-token', () => {
      const s = cat('EAAB', fake(ALNUM, 100));
      return { text: `graph ${s}`, secret: s };
    }),
    sample('jwt', () => {
      const s = cat('eyJ', fake(URLSAFE, 20), '.eyJ', fake(URLSAFE, 40), '.', fake(URLSAFE, 43));
      return { text: `cookie session=${s};`, secret: s };
    }),
    sample('bearer-token', () => {
      const s = fake(URLSAFE, 40);
      return { text: `curl -H "Authorization: Bearer ${s}" https://api.example.com`, secret: s };
    }),
    sample('basic-auth', () => {
      const s = Buffer.from(`admin:${fake(ALNUM, 12)}`).toString('base64');
      return { text: `Authorization: Basic ${s}`, secret: s };
    }),
    sample('curl-credentials', () => {
      const s = fake(ALNUM, 14);
      return { text: `curl -u deploy:${s} https://ci.example.com`, secret: s };
    }),
    sample('database-url', () => {
      const s = fake(ALNUM, 16);
      return { text: `DATABASE_URL=postgres://app:${s}@db.example.com:5432/app`, secret: s };
    }),
    sample('database-url', () => {
      const s = fake(ALNUM, 16);
      return { text: `mongodb+srv://reader:${s}@cluster0.example.mongodb.net/test`, secret: s };
    }),
    sample('database-url', () => {
      const s = fake(ALNUM, 16);
      return { text: `redis://:${s}@cache:6379/0`, secret: s };
    }),
    sample('database-url', () => {
      const s = fake(ALNUM, 16);
      return { text: `amqp://guest:${s}@rabbit:5672/`, secret: s };
    }),
    sample('url-password', () => {
      const s = fake(ALNUM, 12);
      return { text: `fetch https://bob:${s}@files.example.com/x`, secret: s };
    }),
    sample('cli-password-flag', () => {
      const s = fake(ALNUM, 12);
      return { text: `mysqldump --password ${s} shop`, secret: s };
    }),
    sample('password-assignment', () => {
      const s = fake(ALNUM, 10);
      return { text: `password=${s}`, secret: s };
    }),
    sample('password-assignment', () => {
      const s = 'hunter2';
      return { text: `PGPASSWORD=${s} psql -h db`, secret: s };
    }),
    sample('password-assignment', () => {
      const s = fake(ALNUM, 10);
      return { text: `Server=db;Database=app;User Id=sa;Password=${s};`, secret: s };
    }),
    sample('password-assignment', () => {
      const s = `${fake(LOWER, 5)} ${fake(LOWER, 6)}`;
      return { text: `db:\n  passwd: "${s}"\n`, secret: s };
    }),
    sample('secret-assignment', () => {
      const s = uuid();
      return { text: `RAILWAY_TOKEN=${s} npm start`, secret: s };
    }),
    sample('secret-assignment', () => {
      const s = fake(ALNUM, 32);
      return { text: `STRIPE_SECRET: ${s}`, secret: s };
    }),
    sample('secret-assignment', () => {
      const s = fake(ALNUM, 24);
      return { text: `const config = { apiKey: '${s}' };`, secret: s };
    }),
    sample('secret-assignment', () => {
      const s = fake(HEX, 64);
      return { text: `SECRET_KEY_BASE=${s}`, secret: s };
    }),
    sample('secret-assignment', () => {
      const s = fake(ALNUM, 30);
      return { text: `{"client_secret": "${s}"}`, secret: s };
    }),
    sample('env-secret', () => {
      const s = fake(LOWER, 12);
      return { text: `DB_PASSWORD=${s} npm run migrate`, secret: s };
    }),
    sample('env-secret', () => {
      const s = fake(LOWER, 13);
      return { text: `export GITHUB_TOKEN="${s}"`, secret: s };
    }),
    sample('env-secret', () => {
      const s = fake(LOWER, 9);
      return { text: `env:\n  REGION: eu\n  API_SECRET: ${s}`, secret: s };
    }),
  ];
}
