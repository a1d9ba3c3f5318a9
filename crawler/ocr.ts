/**
 * OCR of images in posts with Debian's tesseract (`apt-get install tesseract-ocr
 * tesseract-ocr-chi-sim`): nothing is downloaded at run time. When tesseract is missing, that is
 * reported once and OCR is skipped.
 */
import { execFile, spawn } from "node:child_process";

/** Options of {@link createOcr}. */
export interface OcrOptions {
  /** The tesseract executable. @default process.env.TESSERACT_PATH ?? "tesseract" */
  binary?: string;
  /** Languages, `+`-joined. @default "chi_sim+eng" */
  langs?: string;
  /** Time limit per image. @default 30000 */
  timeoutMs?: number;
  /** Where "tesseract is missing" is reported (once). @default console.warn */
  log?: (message: string) => void;
}

export interface Ocr {
  /** True when tesseract runs; checked once per process. */
  available(): Promise<boolean>;
  /** The text in an image (trimmed; "" when none). Throws when tesseract fails on it. */
  read(image: Uint8Array): Promise<string>;
}

/** Create the OCR reader. */
export function createOcr(options: OcrOptions = {}): Ocr {
  const binary = options.binary ?? process.env.TESSERACT_PATH ?? "tesseract";
  const langs = options.langs ?? "chi_sim+eng";
  const timeoutMs = options.timeoutMs ?? 30_000;
  const log = options.log ?? ((m: string) => console.warn(m));
  let availability: Promise<boolean> | undefined;
  return {
    available() {
      availability ??= new Promise((resolve) => {
        execFile(binary, ["--list-langs"], { timeout: 10_000 }, (err, stdout, stderr) => {
          if (err) {
            log(`OCR skipped: tesseract not found (${binary}); apt-get install tesseract-ocr tesseract-ocr-chi-sim`);
            return resolve(false);
          }
          const have = `${stdout}\n${stderr}`;
          const missing = langs.split("+").filter((l) => !new RegExp(`^${l}$`, "m").test(have));
          if (missing.length) log(`OCR: tesseract lacks ${missing.join(", ")} (apt-get install tesseract-ocr-chi-sim); reading with what it has`);
          resolve(true);
        });
      });
      return availability;
    },
    read(image) {
      return new Promise((resolve, reject) => {
        const child = spawn(binary, ["stdin", "stdout", "-l", langs, "--psm", "6"], { stdio: ["pipe", "pipe", "pipe"] });
        let out = "";
        let err = "";
        const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
        child.stdout.on("data", (d: Buffer) => (out += d.toString("utf8")));
        child.stderr.on("data", (d: Buffer) => (err += d.toString("utf8")));
        child.on("error", (e) => {
          clearTimeout(timer);
          reject(e);
        });
        child.on("close", (code) => {
          clearTimeout(timer);
          if (code === 0) resolve(normaliseOcrText(out));
          else reject(new Error(`tesseract exited with ${code}: ${err.trim().split("\n").at(-1) ?? ""}`));
        });
        child.stdin.on("error", () => undefined);
        child.stdin.end(Buffer.from(image));
      });
    },
  };
}

/** tesseract puts spaces between CJK characters; drop those, keep the ones between Latin words. */
export function normaliseOcrText(s: string): string {
  return s
    .replace(/\f/g, "")
    .replace(/(?<=[\u3000-\u9fff\uff00-\uffef])[ \t]+(?=[\u3000-\u9fff\uff00-\uffef])/g, "")
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .join("\n");
}
