package main

// defaultBots is the bot every analysis command plays with unless --bots
// says otherwise: simulate, impact, sweep, diff and report, and the
// strongest level of skill's default. One skill level for all of them keeps
// their figures comparable: with random bots in one command and greedy in
// another, `cardlab diff` and the report disagreed about the same ruleset.
const defaultBots = "greedy"

// botsFlagUsage is the --bots help of the commands that default to
// defaultBots.
const botsFlagUsage = "the bot `SPEC` for every seat, or one per seat comma-separated (every analysis command and 'cardlab report' default to " + defaultBots + ")"

// defaultBotsHelp is the sentence each analysis command's --help gives
// about its default bot.
const defaultBotsHelp = `Bots default to ` + defaultBots + ` — the same skill level in simulate, impact,
sweep, diff, skill (its strongest level) and report, so their figures agree;
--bots random is several times faster but plays every card alike.`
