/** `grant-plan <email> <tier>`: grants a plan as the administrators' subscriptions screen does. */
import { BadInputError } from "../../errors.ts";
import { type CliCommand, CliUsageError } from "../command.ts";
import { emailArgument, noMorePositionals, operator, userByEmail } from "../operator.ts";

const TIERS = ["free", "basic", "pro", "enterprise"] as const;

export const grantPlanCommand: CliCommand = {
  name: "grant-plan",
  summary: "Grant an account a plan (free, basic, pro or enterprise) for a time",
  usage: `Usage: npm run hub -- grant-plan <email> <free|basic|pro|enterprise> [--until DATE | --days N] [--note TEXT]

  Grants the offered individual plan of that tier, as "Grant a plan" on /super-admin/subscriptions
  does: a manual subscription that ends by itself (the free tier needs no grant and is refused).

  --until DATE   the last day (YYYY-MM-DD) or an ISO time; must be in the future
  --days N       or the number of days from now (default: 30)
  --note TEXT    the note of the grant (default: "Granted on the command line")`,
  valueOptions: ["until", "days", "note"],
  async run(ctx, args) {
    const email = emailArgument(args);
    const tier = args.positional[1]?.toLowerCase();
    if (!tier) throw new CliUsageError("Name the plan's tier: free, basic, pro or enterprise.");
    if (!(TIERS as readonly string[]).includes(tier)) {
      throw new CliUsageError(`"${args.positional[1]}" is not a tier: free, basic, pro or enterprise.`);
    }
    noMorePositionals(args, 2);
    const until = typeof args.flags.until === "string" ? args.flags.until : undefined;
    let days: number | undefined;
    if (typeof args.flags.days === "string") {
      if (!/^\d+$/.test(args.flags.days)) throw new CliUsageError("--days takes a whole number of days.");
      days = Number(args.flags.days);
    }
    if (until !== undefined && days !== undefined)
      throw new CliUsageError("Give --until or --days, not both.");
    if (until === undefined && days === undefined) days = 30;
    const note = typeof args.flags.note === "string" ? args.flags.note : "Granted on the command line";

    const runtime = await ctx.runtime();
    await userByEmail(runtime, email);
    const plans = (await runtime.services.plans.list())
      .filter((p) => p.tier === tier && !p.perSeat && !p.archived)
      .sort((a, b) => a.sortOrder - b.sortOrder);
    const plan = plans[0];
    if (!plan) throw new BadInputError(`No offered individual plan grants the ${tier} tier.`);
    const granted = await runtime.services.billing.grant(operator(runtime), {
      email,
      planId: plan.id,
      ...(until !== undefined ? { until } : { days }),
      note,
    });
    ctx.out(`Granted ${plan.name} (${tier}) to ${email} until ${granted.expiresAt ?? granted.periodEnd}.`);
    return granted;
  },
};
