import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "CampusWatch", template: "%s · CampusWatch" },
  description: "Topic-focused monitoring of campus forums, Tieba, Weibo and blogs",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="zh-CN">
      <body>{children}</body>
    </html>
  );
}
