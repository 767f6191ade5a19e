// The standard OpenAPI Generator CLI (the jar from Maven Central, fetched by mvn into the local Maven repository) and
// the small process helpers the client checks share.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const GENERATOR_VERSION = '7.25.0';
const ARTIFACT = `org.openapitools:openapi-generator-cli:${GENERATOR_VERSION}`;

/** Runs a command to its end and answers spawnSync's result (output as text). */
export function sh(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...opts });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  return r;
}

/** The result of a command that must succeed; otherwise its output is shown and the process exits 1. */
export function must(label, r) {
  if (r.status !== 0) {
    process.stdout.write(r.stdout ?? '');
    process.stderr.write(r.stderr ?? '');
    console.error(`FAIL ${label} (exit ${r.status})`);
    process.exit(1);
  }
  return r;
}

/** The generator jar in the local Maven repository (MAVEN_REPO, else ~/.m2/repository), fetched with mvn when absent. */
export function generatorJar() {
  const repo = process.env.MAVEN_REPO ?? path.join(os.homedir(), '.m2', 'repository');
  const jar = path.join(
    repo,
    'org/openapitools/openapi-generator-cli',
    GENERATOR_VERSION,
    `openapi-generator-cli-${GENERATOR_VERSION}.jar`,
  );
  if (!fs.existsSync(jar))
    must(
      `mvn dependency:get ${ARTIFACT}`,
      sh('mvn', ['-q', '-B', 'dependency:get', `-Dartifact=${ARTIFACT}`, '-Dtransitive=false'], { stdio: 'inherit' }),
    );
  return jar;
}
