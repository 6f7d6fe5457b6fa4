import { defaultLevels, type GateCheck, type GateDeclaration } from './gate.js';

/** The credentials the secret scan found (gate-input.ts ran it on the scope the policy names). */
export const secretsGate: GateCheck = (input) =>
  (input.secrets ?? []).map((match) => ({
    rule: match.rule,
    severity: 'error' as const,
    file: match.file,
    line: match.line,
    message:
      match.commit === undefined
        ? `looks like a ${match.rule} credential (${match.masked}): remove it, rotate the credential if it was real, ` +
          `and rewrite it out of unpushed history; if it is harmless, add "${match.fingerprint}" to secrets.allowlist in the policy`
        : `looks like a ${match.rule} credential (${match.masked}) added in commit ${match.commit.slice(0, 12)} of the pushed range: the head no longer holds it, but the history does; ` +
          `rotate the credential if it was real and rewrite that commit (\`git rebase -i\`) before pushing; if it is harmless, add "${match.fingerprint}" to secrets.allowlist in the policy`,
  }));

export const secrets: GateDeclaration = { name: 'secrets', levels: defaultLevels('block', 'block', 'block'), check: secretsGate };
