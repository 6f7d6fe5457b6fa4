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
  ];
  return { secrets, lookalikes };
}
