"""`tip bill="€42" percent=20 round`: a component body written in Python, built with componentize-py.

componentize-py generates `wit_world` from `wit/reflex/v1`; the body is the class `WitWorld` with a
`run` method. Raising `Err(message)` is the failure.
"""

import json

import wit_world
from componentize_py_types import Err
from wit_world.imports.types import Context, Output, Value_Amount, Value_Flag, Value_Number

# Currencies whose minor unit is not a hundredth.
MINOR_DIGITS = {"JPY": 0, "KRW": 0, "BHD": 3, "KWD": 3}
SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£", "JPY": "¥"}


def shown(minor: int, currency: str) -> str:
    digits = MINOR_DIGITS.get(currency, 2)
    units = minor / (10**digits)
    text = f"{units:,.{digits}f}"
    symbol = SYMBOLS.get(currency)
    return f"{symbol}{text}" if symbol else f"{text} {currency}"


class WitWorld(wit_world.WitWorld):
    def run(self, args, ctx: Context) -> Output:
        values = dict(args)
        bill = values.get("bill")
        if not isinstance(bill, Value_Amount):
            raise Err("the bill is not an amount")
        percent = values.get("percent")
        rate = percent.value if isinstance(percent, Value_Number) else 15.0
        if rate < 0 or rate > 100:
            raise Err(f"a tip of {rate:g} percent is out of range")
        amount, currency = bill.value.amount, bill.value.currency
        tip = round(amount * rate / 100)
        total = amount + tip
        if isinstance(values.get("round"), Value_Flag):
            unit = 10 ** MINOR_DIGITS.get(currency, 2)
            total = -(-total // unit) * unit
            tip = total - amount
        text = f"a {rate:g}% tip on {shown(amount, currency)} is {shown(tip, currency)}; {shown(total, currency)} in all"
        data = {"tip": tip, "total": total, "currency": currency, "percent": rate}
        return Output(text=text, data=json.dumps(data))
