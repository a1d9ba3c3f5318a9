"use client";

import { useState, type FormEvent } from "react";
import { fileTooLarge } from "@/lib/limits";

/**
 * Refuse a file over `limit` in the browser, before it is sent: a file far over the server-action
 * body limit would otherwise end in Next.js's generic error instead of the form's message.
 * Returns the (English) message to show, null when fine, `tooLarge` for a translated one, and
 * the form's onSubmit handler.
 */
export function useFileLimit(limit: number, field = "file") {
  const [error, setError] = useState<string | null>(null);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    const message = fileTooLarge(new FormData(e.currentTarget).get(field), limit);
    setError(message);
    if (message) e.preventDefault();
  };
  return { error, tooLarge: error !== null, onSubmit };
}
