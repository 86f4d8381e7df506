/**
 * CI detection: most CI services set CI=true (GitHub Actions, GitLab, CircleCI, Travis, Buildkite,
 * Azure via TF_BUILD is the odd one out). Installing hooks on a throw-away CI checkout only slows
 * `npm install` down and can make later git steps of the job fail, so install skips there.
 */
export function isCi(env: NodeJS.ProcessEnv): boolean {
  const ci = env.CI?.trim().toLowerCase();
  if (ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0') return true;
  return env.TF_BUILD?.toLowerCase() === 'true';
}
