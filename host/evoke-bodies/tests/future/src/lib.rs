//! A body of a world evoke does not know yet: `evoke:reflex@2.0.0`. The host must refuse it by name.

wit_bindgen::generate!({
    inline: "
        package evoke:reflex@2.0.0;

        interface types {
            record context { input: string }
            record output { text: string }
        }

        world body {
            use types.{context, output};
            export run: func(ctx: context) -> result<output, string>;
        }
    ",
    world: "body",
});

struct Future;

impl Guest for Future {
    fn run(ctx: evoke::reflex::types::Context) -> Result<evoke::reflex::types::Output, String> {
        Ok(evoke::reflex::types::Output { text: ctx.input })
    }
}

export!(Future);
