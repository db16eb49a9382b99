leaf classify(s: Span) -> { kind: enum(bug, question, churn), urgency: enum(low, soon, now) }

agent "Triage" {
  grants { react.add, notify.send, message.send, ai.classify }
  at most world
  lives in channel #support
  memory open_bugs = 0

  on message {
    let c = classify(.message)              // : {kind,urgency} ! MODEL (journaled; needs ai.classify)
    if c.kind == bug {                      // c.kind : enum ! PURE
      react "🐞"                            // ! WORLD cap react.add
      create_task "Bug: {.message}" assignee: "oncall" due: "+1d"   // ! WORLD cap tasks.create
      remember open_bugs += 1               // ! PURE (agent-local state)
      reply "Logged. Open bugs: {open_bugs}."                       // ! WORLD cap message.send
    }
    if c.kind == churn {
      notify "oncall" "Churn risk from {.speaker}"
      reply "Escalating now."
    }
  }
}
