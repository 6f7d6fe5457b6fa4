/**
 * A labelled set of secret shapes and look-alikes for the secrets gate, built at run time from
 * a seeded generator: no token-shaped string is ever written into this repository (the guard
 * scans it too). Each sample is one line as it would sit in a lesson or a config excerpt.
 */
import { seededRandom } from '../helpers/random.js';

export interface SecretSample {
  /** What the line holds: a credential class, or the placeholder it imitates. */
  name: string;
  line: string;
  /** The policy rule expected to report it (secrets only). */
  rule?: string;
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const HEX = '0123456789abcdef';
const BASE32 = `${UPPER}234567`;
const URLSAFE = `${ALNUM}_-`;
const BASE64 = `${ALNUM}+/`;

/** Joins parts, so that the prefixes of tokens never appear whole in the source. */
const j = (...parts: string[]) => parts.join('');

const hexOf = (text: string) => Buffer.from(text).toString('hex');
const fullwidth = (text: string) => text.replace(/[!-~]/g, (char) => String.fromCharCode(char.charCodeAt(0) + 0xfee0));
/** The first character of `text` as a look-alike letter of another script (Cyrillic or Greek). */
const LOOK_ALIKE: Record<string, string> = { A: '\u0410', a: '\u0430', e: '\u0435', o: '\u043e', p: '\u0440', c: '\u0441', K: '\u039a', I: '\u0406', g: '\u0261', h: '\u04bb' };

/**
 * A token spelled the ways that step around a plain match: a markdown escape, zero-width and
 * soft-hyphen characters, fullwidth and look-alike letters, URL encoding, HTML entities, a line
 * split, a shell continuation, a YAML escape, base64 and hex.
 */
function hiddenForms({ name, rule, token }: { name: string; rule: string; token: string }): SecretSample[] {
  const mid = Math.floor(token.length / 2);
  const at = token.search(/[_A-Z]/) > 0 ? token.search(/[_A-Z]/) : 2;
  const swap = [...token].findIndex((char) => LOOK_ALIKE[char] !== undefined);
  const forms: [string, string][] = [
    ['zero-width space', `${token.slice(0, at)}\u200b${token.slice(at)}`],
    ['zero-width joiners throughout', [...token].join('\u200d')],
    ['soft hyphen', `${token.slice(0, mid)}\u00ad${token.slice(mid)}`],
    ['fullwidth', fullwidth(token)],
    ['look-alike letter', `${token.slice(0, swap)}${LOOK_ALIKE[token[swap]!]}${token.slice(swap + 1)}`],
    ['URL-encoded', [...token].map((char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`).join('')],
    ['URL-encoded prefix', `${[...token.slice(0, 4)].map((char) => `%${char.charCodeAt(0).toString(16)}`).join('')}${token.slice(4)}`],
    ['HTML decimal entities', `${[...token.slice(0, 3)].map((char) => `&#${char.charCodeAt(0)};`).join('')}${token.slice(3)}`],
    ['HTML hex entity', `&#x${token.charCodeAt(0).toString(16)};${token.slice(1)}`],
    ['split over two lines', `token:\n  ${token.slice(0, mid)}\n  ${token.slice(mid)}`],
    ['shell line continuation', `export KEY=${token.slice(0, mid)}\\\n${token.slice(mid)}`],
    ['YAML \\u escape', `summary: "${token.slice(0, 1)}\\u00${token.charCodeAt(1).toString(16)}${token.slice(2)}"`],
    ['base64', `echo ${Buffer.from(token).toString('base64')} | base64 -d`],
    ['base64 of an assignment', `env: ${Buffer.from(`KEY=${token}\n`).toString('base64')}`],
    ['base64 twice', `blob: ${Buffer.from(Buffer.from(token).toString('base64')).toString('base64')}`],
    ['hex', `key_hex: ${hexOf(token)}`],
    ['base64url of URL-encoded', `q=${Buffer.from(encodeURIComponent(`t=${token}`).replace(/_/g, '%5F')).toString('base64url')}`],
  ];
  // A markdown escape stands before punctuation only.
  if (token.includes('_')) forms.unshift(['markdown escape', token.replace('_', '\\_')]);
  return forms.map(([form, line]) => ({ name: `${name}, ${form}`, rule, line }));
}

export function secretSamples(seed = 20261123): { secrets: SecretSample[]; lookalikes: SecretSample[] } {
  const random = seededRandom(seed);
  const r = (charset: string, length: number) => Array.from({ length }, () => charset[Math.floor(random() * charset.length)]).join('');
  const b64url = (text: string) => Buffer.from(text).toString('base64url');
  const jwt = `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url(`{"sub":"${r(DIGITS, 10)}","name":"ci-bot","iat":${r(DIGITS, 10)}}`)}.${r(URLSAFE, 43)}`;
  /** A whole PEM block, as a key is pasted: header, a few lines of base64, footer. */
  const pem = (label: string) => [j('-----BEGIN ', label, '-----'), r(BASE64, 64), r(BASE64, 64), `${r(BASE64, 40)}==`, j('-----END ', label, '-----')].join('\n');
  const slackDigits = () => `${r(DIGITS, 11)}-${r(DIGITS, 12)}`;
  const secrets: SecretSample[] = [
    { name: 'AWS access key id (AKIA)', rule: 'aws-access-key-id', line: `aws_access_key_id = ${j('AK', 'IA')}${r(BASE32, 16)}` },
    { name: 'AWS temporary key id (ASIA)', rule: 'aws-access-key-id', line: `The leaked key ${j('AS', 'IA')}${r(BASE32, 16)} was rotated.` },
    { name: 'AWS secret access key', rule: 'generic-secret-assignment', line: `aws_secret_access_key = ${r(BASE64, 40)}` },
    { name: 'GitHub personal access token', rule: 'github-token', line: `export GH_TOKEN=${j('gh', 'p_')}${r(ALNUM, 36)}` },
    { name: 'GitHub OAuth token', rule: 'github-token', line: `oauth: ${j('gh', 'o_')}${r(ALNUM, 36)}` },
    { name: 'GitHub fine-grained token', rule: 'github-token', line: `${j('github', '_pat_')}${r(ALNUM, 22)}_${r(ALNUM, 59)}` },
    { name: 'GitHub app installation token', rule: 'github-token', line: `Authorization: token ${j('gh', 's_')}${r(ALNUM, 36)}` },
    { name: 'GitLab personal access token', rule: 'gitlab-token', line: `PRIVATE-TOKEN: ${j('gl', 'pat-')}${r(URLSAFE, 20)}` },
    { name: 'GitLab runner token', rule: 'gitlab-token', line: `token = "${j('gl', 'rt-')}${r(URLSAFE, 20)}"` },
    { name: 'Slack bot token', rule: 'slack-token', line: `SLACK_BOT_TOKEN=${j('xo', 'xb-')}${slackDigits()}-${r(ALNUM, 24)}` },
    { name: 'Slack user token', rule: 'slack-token', line: `${j('xo', 'xp-')}${slackDigits()}-${r(DIGITS, 13)}-${r(HEX, 32)}` },
    { name: 'Slack app-level token', rule: 'slack-app-token', line: `app_token: ${j('xa', 'pp-')}1-A${r(UPPER + DIGITS, 10)}-${r(DIGITS, 13)}-${r(HEX, 64)}` },
    { name: 'Slack incoming webhook', rule: 'slack-webhook', line: `${j('https://hooks.', 'slack.com/services/')}T${r(UPPER + DIGITS, 10)}/B${r(UPPER + DIGITS, 10)}/${r(ALNUM, 24)}` },
    { name: 'Slack workflow webhook', rule: 'slack-webhook', line: `${j('https://hooks.', 'slack.com/workflows/')}T${r(UPPER + DIGITS, 10)}/A${r(UPPER + DIGITS, 10)}/${r(DIGITS, 18)}/${r(ALNUM, 24)}` },
    { name: 'RSA private key', rule: 'private-key', line: pem('RSA PRIVATE KEY') },
    { name: 'OpenSSH private key', rule: 'private-key', line: pem('OPENSSH PRIVATE KEY') },
    { name: 'Google API key', rule: 'google-api-key', line: `key=${j('AI', 'za')}${r(URLSAFE, 35)}` },
    { name: 'npm token', rule: 'npm-token', line: `//registry.npmjs.org/:_authToken=${j('np', 'm_')}${r(ALNUM, 36)}` },
    { name: 'Stripe live secret key', rule: 'stripe-secret-key', line: `STRIPE_KEY=${j('sk', '_live_')}${r(ALNUM, 24)}` },
    { name: 'Stripe restricted key', rule: 'stripe-secret-key', line: `${j('rk', '_live_')}${r(ALNUM, 24)}` },
    { name: 'JSON Web Token', rule: 'jwt', line: `curl -H "Authorization: Bearer ${jwt}"` },
    { name: 'Anthropic API key', rule: 'anthropic-api-key', line: `ANTHROPIC_API_KEY=${j('sk-', 'ant-api03-')}${r(URLSAFE, 93)}AA` },
    { name: 'Anthropic admin key', rule: 'anthropic-api-key', line: `${j('sk-', 'ant-admin01-')}${r(URLSAFE, 93)}AA` },
    { name: 'OpenAI project key', rule: 'openai-api-key', line: `OPENAI_API_KEY=${j('sk-', 'proj-')}${r(URLSAFE, 74)}${j('T3Blbk', 'FJ')}${r(URLSAFE, 74)}` },
    { name: 'SendGrid API key', rule: 'sendgrid-api-key', line: `SENDGRID_API_KEY=${j('S', 'G.')}${r(URLSAFE, 22)}.${r(URLSAFE, 43)}` },
    { name: 'Twilio API key', rule: 'twilio-api-key', line: `twilio sid ${j('S', 'K')}${r(HEX, 32)}` },
    { name: 'Vault service token', rule: 'vault-token', line: `VAULT_TOKEN=${j('hv', 's.')}${r(URLSAFE, 95)}` },
    { name: 'Vault batch token', rule: 'vault-token', line: `${j('hv', 'b.')}${r(URLSAFE, 140)}` },
    { name: 'Azure storage connection string', rule: 'azure-storage-key', line: `DefaultEndpointsProtocol=https;AccountName=prodlogs;${j('Account', 'Key=')}${r(BASE64, 86)}==;EndpointSuffix=core.windows.net` },
    { name: 'Azure AD client secret', rule: 'azure-ad-client-secret', line: `AZURE_CLIENT_SECRET=${r(ALNUM, 3)}8${j('Q', '~')}${r(ALNUM, 34)}` },
    { name: 'PostgreSQL URL with password', rule: 'database-url-password', line: `DATABASE_URL=postgres://billing:${r(ALNUM, 18)}@db.internal:5432/billing` },
    { name: 'MySQL URL with password', rule: 'database-url-password', line: `mysql://app:${r(ALNUM, 16)}@10.0.3.7/orders` },
    { name: 'MongoDB SRV URL with password', rule: 'database-url-password', line: `mongodb+srv://svc:${r(ALNUM, 20)}@cluster0.example.net/prod` },
    { name: 'Redis URL with password', rule: 'database-url-password', line: `REDIS_URL=rediss://default:${r(ALNUM, 24)}@cache.internal:6380` },
    { name: 'OAuth client secret (YAML)', rule: 'generic-secret-assignment', line: `client_secret: "${r(URLSAFE, 32)}"` },
    { name: 'OAuth client secret (code)', rule: 'generic-secret-assignment', line: `CLIENT_SECRET = '${r(ALNUM, 40)}'` },
    { name: 'password assignment', rule: 'generic-secret-assignment', line: `password: "${r(ALNUM, 20)}"` },
    { name: 'api_key assignment', rule: 'generic-secret-assignment', line: `api_key = "${r(HEX, 32)}"` },
    { name: 'password in an env file', rule: 'generic-secret-assignment', line: `DB_PASSWORD=${r(ALNUM, 18)}` },
    { name: 'apiKey in JSON', rule: 'generic-secret-assignment', line: `"apiKey": "${r(ALNUM, 32)}",` },
    { name: 'auth token assignment', rule: 'generic-secret-assignment', line: `auth_token: ${r(ALNUM, 40)}` },
    { name: 'Django-style secret key', rule: 'generic-secret-assignment', line: `SECRET_KEY = "${r(ALNUM, 50)}"` },
    { name: 'Datadog API key', rule: 'generic-secret-assignment', line: `DD_API_KEY=${r(HEX, 32)}` },
    { name: 'PyPI upload token', rule: 'pypi-token', line: `password = ${j('pypi-', 'AgEIcHlwaS5vcmc')}${r(URLSAFE, 70)}` },
    { name: 'Shopify access token', rule: 'shopify-token', line: `X-Shopify-Access-Token: ${j('shp', 'at_')}${r(HEX, 32)}` },
    { name: 'Databricks token', rule: 'databricks-token', line: `DATABRICKS_TOKEN=${j('da', 'pi')}${r(HEX, 32)}` },
    { name: 'EC private key', rule: 'private-key', line: pem('EC PRIVATE KEY') },
    { name: 'GitHub refresh token', rule: 'github-token', line: `refresh: ${j('gh', 'r_')}${r(ALNUM, 76)}` },
    { name: 'Slack legacy workspace token (xoxa-2-)', rule: 'slack-token', line: `${j('xo', 'xa-')}2-${r(DIGITS, 10)}-${r(DIGITS, 12)}-${r(DIGITS, 13)}-${r(HEX, 32)}` },
    { name: 'password with symbols', rule: 'password-assignment', line: `password: "${r(ALNUM, 6)}!${r(ALNUM, 5)}#${r(DIGITS, 2)}&${r(ALNUM, 4)}"` },
    { name: 'password with symbols, unquoted', rule: 'password-assignment', line: `DB_PASSWORD=${r(ALNUM, 7)}@${r(ALNUM, 6)}%${r(DIGITS, 3)}` },
    { name: 'Redis URL with a password and no user', rule: 'database-url-password', line: `REDIS_URL=redis://:${r(ALNUM, 24)}@cache.internal:6379/0` },
    { name: 'HTTP Basic auth header', rule: 'basic-auth-header', line: `curl -H "Authorization: Basic ${Buffer.from(`deploy:${r(ALNUM, 20)}`).toString('base64')}" https://ci.internal` },
    { name: 'Telegram bot token', rule: 'telegram-bot-token', line: `TELEGRAM_BOT_TOKEN=${r(DIGITS, 10)}:AA${r(URLSAFE, 33)}` },
    ...hiddenForms({ name: 'GitHub token', rule: 'github-token', token: `${j('gh', 'p_')}${r(ALNUM, 36)}` }),
    ...hiddenForms({ name: 'AWS key id', rule: 'aws-access-key-id', token: `${j('AK', 'IA')}${r(BASE32, 16)}` }),
    { name: 'PEM block with a lowercase header', rule: 'private-key', line: pem('RSA PRIVATE KEY').replace(/-----(BEGIN|END) RSA PRIVATE KEY-----/g, (header) => header.toLowerCase()) },
    { name: 'PEM block with 4-dash header', rule: 'private-key', line: pem('PRIVATE KEY').replace(/-----/g, '----') },
    { name: 'encrypted PEM block with headers', rule: 'private-key', line: pem('RSA PRIVATE KEY').replace('-----\n', `-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,${r(HEX, 32).toUpperCase()}\n\n`) },
  ];
  const lookalikes: SecretSample[] = [
    { name: "AWS's documented example key id", line: `e.g. ${j('AK', 'IA', 'IOSFODNN7', 'EXAMPLE')}` },
    { name: "AWS's documented example secret key", line: `aws_secret_access_key = ${j('wJalrXUtnFEMI/K7MDENG/', 'bPxRfiCY', 'EXAMPLEKEY')}` },
    { name: 'Slack placeholder', line: `SLACK_BOT_TOKEN=${j('xo', 'xb-')}your-token-here` },
    { name: 'GitHub placeholder of x', line: `GH_TOKEN=${j('gh', 'p_')}${'x'.repeat(36)}` },
    { name: 'GitHub fine-grained placeholder', line: `${j('github', '_pat_')}${'X'.repeat(82)}` },
    { name: 'a secret name in config', line: 'secret_name: prod-2024-db-creds-rotation' },
    { name: 'a GitHub Actions secret reference', line: 'token: ${{ secrets.DEPLOY_TOKEN }}' },
    { name: 'a replace-me value', line: 'api_key: REPLACE_WITH_YOUR_API_KEY' },
    { name: 'a passphrase example', line: 'password = correct-horse-battery-staple' },
    { name: 'an environment variable read', line: 'token = process.env.GITHUB_TOKEN_VALUE' },
    { name: 'a URL with the word password', line: 'postgres://user:password@localhost:5432/app' },
    { name: 'a URL with a variable', line: 'postgres://app:${DB_PASSWORD}@db:5432/app' },
    { name: 'a URL with an angle placeholder', line: 'mysql://root:<password>@127.0.0.1/db' },
    { name: 'a URL with the default local password', line: 'DATABASE_URL=postgres://postgres:postgres@localhost:5432/test' },
    { name: "Slack's documented webhook example", line: `${j('https://hooks.', 'slack.com/services/')}T00000000/B00000000/${'X'.repeat(24)}` },
    { name: 'a git commit id', line: `Fixed in commit ${r(HEX, 40)}.` },
    { name: 'a sha256 digest', line: `digest: sha256:${r(HEX, 64)}` },
    { name: 'a UUID', line: `request_id: ${r(HEX, 8)}-${r(HEX, 4)}-4${r(HEX, 3)}-a${r(HEX, 3)}-${r(HEX, 12)}` },
    { name: 'a token endpoint', line: 'token_url: https://oauth2.googleapis.com/token' },
    { name: 'an auth method name', line: 'auth_method: client_secret_post' },
    { name: 'a password file path', line: 'password_file: /run/secrets/db_password' },
    { name: 'a Kubernetes secret reference', line: 'secretKeyRef: { name: db-creds, key: password }' },
    { name: 'an npm token from CI secrets', line: 'export NPM_TOKEN=${{ secrets.NPM_TOKEN }}' },
    { name: 'a bearer placeholder', line: 'Authorization: Bearer <token>' },
    { name: 'an api key of x', line: `api_key = "${'x'.repeat(24)}"` },
    { name: 'a Google key placeholder', line: `key=${j('AI', 'za', 'Sy')}${'X'.repeat(33)}` },
    { name: 'an npm token placeholder', line: `${j('np', 'm_')}${'x'.repeat(36)}` },
    { name: 'a Vault token placeholder', line: `VAULT_TOKEN=${j('hv', 's.')}<token>` },
    { name: 'a public key', line: pem('PUBLIC KEY') },
    { name: 'a certificate', line: pem('CERTIFICATE') },
    { name: 'a client secret placeholder', line: 'client_secret: <your-client-secret>' },
    { name: 'a changeme secret', line: 'SECRET_KEY=changeme' },
    { name: 'a masked password', line: 'password: "********"' },
    { name: 'a tokenizer name', line: 'tokenizer: bert-base-uncased-v2-2024' },
    { name: 'an authors list', line: 'authors: jane-doe-2024-maintainers-team' },
    { name: 'a token lifetime', line: 'access_token_ttl: 3600s' },
    { name: 'a password policy', line: 'password_min_length = 12' },
    { name: 'an api key header name', line: 'api_key_header: X-API-Key' },
    { name: 'a feature flag name', line: 'secret-scanning: enabled-for-all-repositories-2024' },
    { name: 'a Twilio-shaped run of zeros', line: `${j('S', 'K')}${'0'.repeat(32)}` },
    { name: 'a GitLab token placeholder', line: `PRIVATE-TOKEN: ${j('gl', 'pat-')}${'x'.repeat(20)}` },
    { name: 'an Azure account key placeholder', line: `${j('Account', 'Key=')}<your-account-key>` },
    { name: 'an all-zero Slack bot token placeholder', line: `SLACK_BOT_TOKEN=${j('xo', 'xb-')}${'0'.repeat(11)}-${'0'.repeat(13)}-${'0'.repeat(24)}` },
    { name: 'a Slack bot token placeholder of zeros and X', line: `${j('xo', 'xb-')}${'0'.repeat(10)}-${'0'.repeat(13)}-${'X'.repeat(24)}` },
    { name: 'prose naming a PEM header', line: `A key file starts with ${j('-----BEGIN ', 'RSA PRIVATE KEY-----')} and must never be committed.` },
    { name: 'prose naming a PEM header on its own line', line: `The header looks like this:\n\n    ${j('-----BEGIN ', 'OPENSSH PRIVATE KEY-----')}\n\nand the footer like the header with END.` },
    { name: "jwt.io's sample token", line: `Try it with ${j('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9', '.', 'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ', '.', 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c')}` },
    { name: 'a Basic auth placeholder', line: 'Authorization: Basic <base64 of user:password>' },
    { name: 'a Telegram token placeholder', line: `TELEGRAM_BOT_TOKEN=123456789:AA${'x'.repeat(33)}` },
    { name: 'a password placeholder with symbols', line: 'password: "<your-password>"' },
    { name: 'a password read from the environment', line: 'password: ${DB_PASSWORD}' },
    { name: 'a passphrase of words', line: 'passphrase: correct-horse-battery-staple!' },
    { name: 'base64 of plain prose', line: `echo ${Buffer.from('the deploy ran twice on friday').toString('base64')} | base64 -d` },
    { name: 'hex of plain prose', line: `payload: ${Buffer.from('hello from the release job').toString('hex')}` },
    { name: 'markdown escapes in prose', line: 'Rename snake\\_case\\_name to camelCase and keep \\*emphasis\\* off.' },
    { name: 'a URL-encoded query', line: 'https://example.com/search?q=token%20rotation%20policy%21&page=2' },
    { name: 'HTML entities in prose', line: 'Pass &lt;token&gt; as the first argument &amp; the &quot;scope&quot; second.' },
    { name: 'fullwidth prose', line: 'The banner read \uff34\uff2f\uff2b\uff25\uff2e \uff32\uff2f\uff34\uff21\uff34\uff29\uff2f\uff2e in fullwidth letters.' },
    { name: 'wrapped prose lines', line: 'The access token for the staging cluster rotates every\nninety days; the secret store holds the current one and\nthe previous one for a day.' },
  ];
  return { secrets, lookalikes };
}
