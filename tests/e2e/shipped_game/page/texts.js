// The shipped game's texts, in the page's two languages (its own keys: "shipped.*").

export const TEXTS = {
  en: {
    "shipped.table": "The shipped game's table",
    "shipped.hand": "Your cards",
    "shipped.played": "played {card}",
  },
  ru: {
    "shipped.table": "Стол привозной игры",
    "shipped.hand": "Ваши карты",
    "shipped.played": "сыграна {card}",
  },
};
