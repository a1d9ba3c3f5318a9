// ESLint flat config: Next.js's own rules (eslint-config-next: React, hooks, a11y, import, Core Web
// Vitals) plus typescript-eslint with type information, so that promise mistakes (a promise nobody
// awaits, an async function where a void callback is expected) are found before they lose an error
// or a database write at run time. `npm run lint` runs it with zero warnings allowed.
import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import tseslint from "typescript-eslint";
import prettier from "eslint-config-prettier/flat";

// Layers point one way (README "Architecture"): entry points (app/, components/, the CLI, bin/,
// scripts/, bench/) → server/ → crawler/ modules, through each module's index → the lower
// lib/ (db, config, validation, auth, net, notify, …). A reach the other way is an error here, so
// `npm run lint` (and `npm test`, which runs it first) fails on it; test/unit/lint-layers.test.ts
// checks that each rule still fires. Paths resolve through eslint-config-next's TypeScript
// resolver, so `@/…`, relative and `import type` imports are all caught.
const root = import.meta.dirname;
const lowerLib = ["./lib/**"];
const layers = [
  {
    files: ["**/*.{ts,tsx,mts,cts}"],
    rules: {
      "import/no-restricted-paths": [
        "error",
        {
          basePath: root,
          zones: [
            {
              // a. The lower lib is what the crawler stands on: it cannot stand on the crawler.
              target: lowerLib,
              from: ["./crawler", "./server"],
              message:
                "lib/ sits below the crawler and the dashboard's queries: move the pure code or type it needs down into lib/ (re-exporting it from the old crawler path), or move this code up into server/.",
            },
            {
              // a2. i18n/ (the dashboard's languages) stands on lib/ (i18n/config.ts reads lib/time.ts),
              // so lib/ and the crawler below it word nothing through it: they give codes and data,
              // and the dashboard words them.
              target: [...lowerLib, "./crawler/**"],
              from: ["./i18n"],
              message: "lib/ and crawler/ sit below i18n/: return a code or plain data and let the page, action or component word it (i18n/, messages/*.json).",
            },
            {
              // b. The crawler never reaches up into the dashboard's queries or UI. Its entry points
              // (cli.ts, commands/, and demo.ts, the data `campuswatch demo` seeds) may.
              target: ["./crawler/!(cli|demo).ts", "./crawler/!(commands)/**"],
              from: ["./server", "./app", "./components"],
              message:
                "crawler/ modules do not import server/, app/ or components/: move what is needed down into lib/ or into the crawler, or do this in an entry point (crawler/cli.ts, crawler/commands/).",
            },
            {
              // c. The dashboard sees a crawler module only through its public index.
              target: ["./app", "./components"],
              from: "./crawler/**",
              except: ["**/crawler/*/index.ts"],
              message:
                "app/ and components/ import the crawler only through a module's index (`@/crawler/discover`, not `@/crawler/discover/options`): export what is needed from that index. A client component that must not bundle the index gets a light public entry of the module, listed here.",
            },
          ],
        },
      ],
    },
  },
  {
    // d. Pages, route handlers, server actions and components reach the database only through
    // named functions in server/, where a query can be found, reused and tested.
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector:
            "CallExpression[callee.type='MemberExpression'][callee.object.type='MemberExpression'][callee.object.object.type='Identifier'][callee.object.object.name='db']",
          message: "No Prisma calls in app/ or components/: put this query in a named function in server/ (taking `db`) and call that.",
        },
        {
          selector: "CallExpression[callee.type='MemberExpression'][callee.object.type='Identifier'][callee.object.name='db'][callee.property.name=/^\\$/]",
          message: "No Prisma transactions or raw SQL in app/ or components/: put this in a named function in server/ (taking `db`) and call that.",
        },
        {
          selector: "TaggedTemplateExpression[tag.type='MemberExpression'][tag.object.type='Identifier'][tag.object.name='db'][tag.property.name=/^\\$/]",
          message: "No raw SQL in app/ or components/: put this query in a named function in server/ (taking `db`) and call that.",
        },
      ],
    },
  },
];

export default defineConfig([
  // Generated code, build output, runtime data and test reports are not ours to lint.
  globalIgnores([
    "generated/**",
    ".next*/**",
    "dist/**",
    "node_modules/**",
    "test-results/**",
    "playwright-report/**",
    "coverage/**",
    "data/**",
    "scratch/**",
    "next-env.d.ts",
  ]),
  // ESLint's own core rules (no-control-regex, no-fallthrough, …); typescript-eslint below turns
  // off those the type checker already covers in .ts files.
  js.configs.recommended,
  ...nextVitals,
  ...nextTs,
  {
    // Type-aware rules need the TypeScript program: every .ts/.tsx file is in tsconfig.json.
    files: ["**/*.{ts,tsx,mts,cts}"],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      // A leading underscore marks a binding kept on purpose: a parameter an interface requires, or
      // a property taken out of an object so that the rest can be passed on.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Vitest's asymmetric matchers (expect.any, expect.stringContaining, …) are typed `any` by
    // design, so every `{ field: expect.any(String) }` would be reported; the other no-unsafe-*
    // rules stay on in tests.
    // Test doubles implement async interfaces with `async` functions that await nothing: `async`
    // is what makes their throw a rejection, as in the real implementation.
    files: ["test/**/*.{ts,tsx}"],
    rules: { "@typescript-eslint/no-unsafe-assignment": "off", "@typescript-eslint/require-await": "off" },
  },
  ...layers,
  {
    // Plain JavaScript (bin/, scripts/*.mjs, this file) is outside the TypeScript program.
    files: ["**/*.{js,mjs,cjs,jsx}"],
    extends: [tseslint.configs.disableTypeChecked],
  },
  // Layout is Prettier's job (`npm run format`; `npm run lint` checks it): rules that would argue
  // with it are off.
  prettier,
]);
