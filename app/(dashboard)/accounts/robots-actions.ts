"use server";

import { userActor } from "@/lib/audit";
import { revalidatePath } from "next/cache";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { db } from "@/lib/db";
import { setRobotsPolicy } from "@/server/account-access";
import { formValues, guard, localizedInvalid, type FormState } from "../_lib/form";

const schema = z.object({ id: z.coerce.number().int().positive(), policy: z.enum(["obey", "ignore"]) });

/** Set an account's robots.txt policy; "ignore" records the signed-in admin and the time. */
export async function setRobotsPolicyAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const parsed = schema.safeParse(formValues(formData));
  if (!parsed.success) return localizedInvalid(parsed.error, {});
  const { user, state } = await guard("manage-accounts");
  if (state) return state;
  await setRobotsPolicy(db, parsed.data.id, parsed.data.policy, user.username, userActor(user));
  revalidatePath(`/accounts/${parsed.data.id}`);
  const t = await getTranslations("accounts.robots");
  return { ok: true, message: parsed.data.policy === "ignore" ? t("nowIgnored") : t("nowObeyed") };
}
