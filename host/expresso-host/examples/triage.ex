leaf classify(s: Span) -> { kind: enum(bug, question, churn), urgency: enum(low, soon, now) }

agent "Triage" {
  grants { react.add, tasks.create, notify.send, message.send, ai.classify }
  at most world
  lives in channel #support
  memory open_bugs = 0

  on message {
    let c = classify(.message)
    if c.kind == bug {
      react "🐞"
      create_task "Bug: {.message}" assignee: "oncall" due: "+1d"
      remember open_bugs += 1
      reply "Logged. Open bugs: {open_bugs}."
    }
    if c.kind == churn {
      notify "oncall" "Churn risk from {.speaker}"
      reply "Escalating now."
    }
  }
}
