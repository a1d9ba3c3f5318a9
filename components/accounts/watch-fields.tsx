"use client";

import { useTranslations } from "next-intl";
import { isPlatform, platformEntry, WATCH_PLATFORMS } from "@/lib/platforms";
import { usePlatformName } from "../platform-badge";

interface Props {
  /** Id prefix of the form's fields. */
  idp: string;
  /** What was submitted, after a failed submit. */
  values: Record<string, string> | undefined;
  platform: string;
  onPlatform: (platform: string) => void;
  /** The field's error text, if any. */
  err: (name: string) => string | undefined;
}

/**
 * The "keyword watch" fields of the add-account form: the platform whose search is followed, the
 * word, the Tieba bar or the Discuz! board, and the result pages per run. The server action
 * builds the search URL from them (app/(dashboard)/accounts/_lib/problems.ts).
 */
export function WatchFields({ idp, values: v, platform: watchPlatform, onPlatform: setWatchPlatform, err }: Props) {
  const tw = useTranslations("accounts.watch");
  const platformName = usePlatformName();
  // Which search fields the chosen platform needs besides the word (its registry entry's).
  const scope = isPlatform(watchPlatform) ? platformEntry(watchPlatform).features.keywordWatch : null;
  return (
    <div className="form-grid watch-fields" data-testid="watch-fields">
      <p className="field wide hint">{tw("intro")}</p>
      <div className="field">
        <label htmlFor={`${idp}-watch-platform`}>{tw("platform")}</label>
        <select
          id={`${idp}-watch-platform`}
          name="watchPlatform"
          value={watchPlatform}
          onChange={(e) => setWatchPlatform(e.target.value)}
          aria-invalid={Boolean(err("watchPlatform"))}
          aria-describedby={`${idp}-watch-platform-error`}
        >
          {WATCH_PLATFORMS.map((p) => (
            <option key={p} value={p}>
              {platformName(p, "full")}
            </option>
          ))}
        </select>
        <div id={`${idp}-watch-platform-error`} className="field-error" aria-live="polite">
          {err("watchPlatform")}
        </div>
      </div>
      <div className="field">
        <label htmlFor={`${idp}-word`}>{tw("word")}</label>
        <input
          id={`${idp}-word`}
          name="word"
          type="text"
          defaultValue={v?.word ?? ""}
          key={v ? `w-${v.word}` : "w"}
          placeholder={tw("wordPlaceholder")}
          aria-invalid={Boolean(err("word") ?? err("url"))}
          aria-describedby={`${idp}-word-error`}
        />
        <div id={`${idp}-word-error`} className="field-error" aria-live="polite">
          {err("word") ?? err("url")}
        </div>
      </div>
      {scope === "bar" && (
        <div className="field">
          <label htmlFor={`${idp}-bar`}>{tw("bar")}</label>
          <input
            id={`${idp}-bar`}
            name="bar"
            type="text"
            defaultValue={v?.bar ?? ""}
            key={v ? `b-${v.bar}` : "b"}
            placeholder={tw("barPlaceholder")}
            aria-invalid={Boolean(err("bar"))}
            aria-describedby={`${idp}-bar-error`}
          />
          <div id={`${idp}-bar-error`} className="field-error" aria-live="polite">
            {err("bar")}
          </div>
        </div>
      )}
      {scope === "board" && (
        <div className="field wide">
          <label htmlFor={`${idp}-board`}>{tw("board")}</label>
          <input
            id={`${idp}-board`}
            name="board"
            type="url"
            defaultValue={v?.board ?? ""}
            key={v ? `d-${v.board}` : "d"}
            placeholder={tw("boardPlaceholder")}
            aria-invalid={Boolean(err("board"))}
            aria-describedby={`${idp}-board-error ${idp}-board-help`}
          />
          <div id={`${idp}-board-error`} className="field-error" aria-live="polite">
            {err("board")}
          </div>
          <div id={`${idp}-board-help`} className="hint">
            {tw("boardHelp")}
          </div>
        </div>
      )}
      <div className="field">
        <label htmlFor={`${idp}-pages`}>{tw("pages")}</label>
        <input
          id={`${idp}-pages`}
          name="pages"
          type="number"
          min={1}
          max={20}
          defaultValue={v?.pages ?? "3"}
          key={v ? `p-${v.pages}` : "p"}
          aria-invalid={Boolean(err("pages"))}
          aria-describedby={`${idp}-pages-error ${idp}-pages-help`}
        />
        <div id={`${idp}-pages-error`} className="field-error" aria-live="polite">
          {err("pages")}
        </div>
        <div id={`${idp}-pages-help`} className="hint">
          {tw("pagesHelp")}
        </div>
      </div>
    </div>
  );
}
