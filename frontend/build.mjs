// Builds the card's module into the integration (committed: HACS installs need no build).
//   node build.mjs [--outfile PATH]
// The bundle's first line records a SHA-256 of everything the build reads (sources, lock
// file, this script), computed as tests/test_schedule_card_frontend.py recomputes it: a source
// changed without a rebuild fails the tests even where node is missing. The build is
// deterministic (same inputs, same bytes), which the tests check where node is installed.
import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const DEFAULT_OUTFILE = join(
  here,
  "..",
  "custom_components",
  "thermostat_cloud",
  "frontend",
  "thermostat-cloud-schedule-card.js",
);

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** The files the bundle is built from, as paths relative to frontend/ with "/" separators. */
export function inputFiles() {
  const files = [...walk(join(here, "src")), join(here, "package.json"), join(here, "package-lock.json"), join(here, "build.mjs"), join(here, "tsconfig.json")];
  return files.map((file) => relative(here, file).split(sep).join("/")).sort();
}

export function sourcesHash() {
  const hash = createHash("sha256");
  for (const name of inputFiles()) {
    hash.update(`${name}\0`);
    hash.update(readFileSync(join(here, name)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

const args = process.argv.slice(2);
const outfileIndex = args.indexOf("--outfile");
const outfile = outfileIndex >= 0 ? args[outfileIndex + 1] : DEFAULT_OUTFILE;

await build({
  entryPoints: [join(here, "src", "index.ts")],
  outfile,
  bundle: true,
  format: "esm",
  target: "es2021",
  minify: true,
  // Tagged templates (Lit's html`` and css``) become plain calls with their strings escaped, so
  // the code under the header is one line: minified whole, never read as a copy of the sources.
  supported: { "template-literal": false },
  legalComments: "none",
  charset: "utf8",
  logLevel: "warning",
  banner: {
    js: `/*! Thermostat Cloud schedule card. Built by frontend/build.mjs from sources sha256:${sourcesHash()} (MIT; includes Lit, BSD-3-Clause, and Material Design Icons, Apache-2.0) */`,
  },
});
