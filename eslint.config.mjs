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

export default defineConfig([
  // Generated code, build output, runtime data and test reports are not ours to lint.
  globalIgnores([
    "generated/**",
    ".next*/**",
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
  {
    // Plain JavaScript (bin/, scripts/*.mjs, this file) is outside the TypeScript program.
    files: ["**/*.{js,mjs,cjs,jsx}"],
    extends: [tseslint.configs.disableTypeChecked],
  },
  // Layout is Prettier's job (`npm run format`; `npm run lint` checks it): rules that would argue
  // with it are off.
  prettier,
]);
