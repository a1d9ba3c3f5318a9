"use client";

import { useEffect, useRef, useState } from "react";

/**
 * Renders `children` only once its box comes near the viewport; until then a placeholder of the
 * same height holds the place, so nothing below it jumps when it appears.
 *
 * Why: a chart is hundreds of SVG elements that React has to build and the browser to lay out,
 * and on the charts page that work used to hold back the page's `load` for charts nobody had
 * scrolled to yet. A chart in the first screenful renders right after hydration; the others when
 * the reader scrolls to them (`margin` ahead of time, none by default).
 */
export function LazyVisible({
  height,
  margin = "0px",
  className,
  children,
}: {
  /** The rendered content's height in pixels (the placeholder's height). */
  height: number;
  /** How far outside the viewport rendering starts (an IntersectionObserver rootMargin). */
  margin?: string;
  className?: string;
  children: React.ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || visible) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setVisible(true);
          observer.disconnect();
        }
      },
      { rootMargin: margin },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [visible, margin]);
  if (visible) return <>{children}</>;
  return <div ref={ref} className={className ?? "lazy-placeholder"} style={{ height }} aria-busy="true" data-testid="chart-placeholder" />;
}
