// The jieba worker thread (see segment-thread.ts). Plain JavaScript on purpose: a worker starts
// from a file, and this one must start the same way from the sources (tsx, Vitest), the CLI's
// dist/ build and any other bundle, none of which can hand a worker TypeScript.
//
// It owns its own nodejieba (N-API addons keep their state per thread): it loads the dictionaries
// on the first request, keeps the user words exactly as the main thread's tokenizer says (the same
// rules as tokenizer.ts: every word with the same tag and weight, so only the SET matters; a word
// that must go means a reload), and returns raw jieba output. Filtering stays on the main thread,
// in the same function the synchronous path uses.
import { parentPort, workerData } from "node:worker_threads";
import nodejieba from "nodejieba";

/** @type {Set<string> | null} the user words loaded, or null before the first load */
let loaded = null;

function load() {
  nodejieba.load(workerData.load);
  loaded = new Set();
}

/** Make the user words exactly `words` (an array of normalised words). */
function syncWords(words) {
  const want = new Set(words);
  let reload = loaded === null;
  if (!reload) {
    for (const w of loaded) {
      if (!want.has(w)) {
        reload = true;
        break;
      }
    }
  }
  if (reload) load();
  for (const w of want) {
    if (loaded.has(w)) continue;
    nodejieba.insertWord(w, workerData.tag);
    loaded.add(w);
  }
}

parentPort.on("message", (msg) => {
  try {
    if (msg.words) syncWords(msg.words);
    else if (loaded === null) load();
    if (msg.tag) {
      const out = msg.texts.map((t) => (t === "" ? [] : nodejieba.tag(t)));
      parentPort.postMessage({ id: msg.id, tagged: out });
    } else {
      // cut(…, true): jieba's mixed mode, as tokenizer.ts's segment().
      const out = msg.texts.map((t) => (t === "" ? [] : nodejieba.cut(t, true)));
      parentPort.postMessage({ id: msg.id, tokens: out });
    }
  } catch (e) {
    parentPort.postMessage({ id: msg.id, error: e instanceof Error ? e.message : String(e) });
  }
});
