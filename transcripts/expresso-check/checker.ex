leaf ai.extract(s: Span) -> list<{ title: text }>
leaf tone(s: Span) -> enum(calm, tense)

agent "Scribe" {
  grants { tasks.create }
  at most model
  on someone says /todo/ {
    let items = ai.extract(.text)
    for item in items { create_task item.title }
    let t = tone(.text)
    for x in t { }
  }
}

agent "Scribe" {
  on message { }
}
