// The texts of the rules links and of the coach (coach.js), in English and in Russian;
// merged into i18n.js's dictionary.

/** Texts by language, then by key (merged into i18n.js).
 * @type {Record<string, Record<string, string>>} */
export const COACH_TEXTS = {
  en: {
    "nav.rules": "Rules",
    "rules.of": "Rules of {game}",
    "coach.switch": "Coach: explain the moves",
    "coach.title": "Learning",
    "coach.houseRules": "House rules at this table",
    "coach.noHouseRules": "This table plays the book's rules.",
    "coach.jack": "J takes the whole table",
    "coach.king": "a King takes 13 or 14",
    "coach.or": " or ",
    "coach.trailEmpty": "The table is empty, so a card can only be laid on it.",
    "coach.trailNoSum": "No table cards add up to {sums}, so {card} can take nothing.",
    "coach.most_cards": "most cards +{n}",
    "coach.most_clubs": "most clubs +{n}",
    "coach.two_clubs": "2♣ +{n}",
    "coach.ten_diamonds": "10♦ +{n}",
    "coach.noPoints": "no points",
    "coach.noMeld": "{card}: no meld holds it with two cards of your hand (the third card rule).",
    "coach.short": "{card}: your opening would reach {best}, {short} short of {min}.",
  },
  ru: {
    "nav.rules": "Правила",
    "rules.of": "Правила: {game}",
    "coach.switch": "Тренер: объяснять ходы",
    "coach.title": "Обучение",
    "coach.houseRules": "Домашние правила этого стола",
    "coach.noHouseRules": "Этот стол играет по правилам книги.",
    "coach.jack": "В забирает весь стол",
    "coach.king": "король берёт 13 или 14",
    "coach.or": " или ",
    "coach.trailEmpty": "Стол пуст, поэтому карту можно только положить на него.",
    "coach.trailNoSum": "Никакие карты на столе не дают в сумме {sums}, поэтому {card} ничего не берёт.",
    "coach.most_cards": "больше карт +{n}",
    "coach.most_clubs": "больше треф +{n}",
    "coach.two_clubs": "2♣ +{n}",
    "coach.ten_diamonds": "10♦ +{n}",
    "coach.noPoints": "нет очков",
    "coach.noMeld": "{card}: нет комбинации с ней и двумя картами с вашей руки (правило третьей карты).",
    "coach.short": "{card}: первая выкладка наберёт {best} — на {short} меньше {min}.",
  },
};
