// The page's own types, as JSDoc typedefs for `tsc --checkJs` (jsconfig.json): no code,
// nothing to load. The identity kept in the browser, the catalog, the views as the shared
// modules read them, the messages the page sends and replays (docs/protocol.md). The
// server's WebSocket messages are in protocol.js.

export {};

/** @typedef {import("./protocol.js").TableSummary} TableSummary */
/** @typedef {import("./protocol.js").ChatLine} ChatLine */
/** @typedef {import("./protocol.js").ClosedMessage} ClosedMessage */
/** @typedef {import("./protocol.js").RematchMessage} RematchMessage */
/** @typedef {import("./protocol.js").RatedMessage} RatedMessage */
/** @typedef {import("./protocol.js").PongMessage} PongMessage */

// ---------------------------------------------------------------- identity

/**
 * The identity kept in localStorage: the browser's own, or a seat link's for one table.
 * @typedef {object} Identity
 * @property {string} token
 * @property {string} player_id
 * @property {string} nickname
 * @property {string} [table] a seat link's table (the identity serves it alone)
 * @property {number} [seat] the seat a seat link opens
 */

// ---------------------------------------------------------------- the catalog

/**
 * A text in each language the server has it in.
 * @typedef {{en?: string, ru?: string, [lang: string]: string | undefined}} Title
 */

/**
 * One rule option of a game (GET /api/catalog).
 * @typedef {object} RuleOption
 * @property {string} name
 * @property {"int" | "bool" | "choice" | string} type
 * @property {string | number | boolean | null} default
 * @property {number | null} [min]
 * @property {number | null} [max]
 * @property {{value: string, title?: Title}[]} [choices]
 * @property {Title} [title]
 * @property {Title} [zero] the text of a number option's 0
 * @property {Title} [help]
 */

/**
 * A rating pool a game declares (the leaderboards).
 * @typedef {{pool: string, title?: Title, min_seats?: number, max_seats?: number}} RatingPool
 */

/**
 * A game the server offers (its descriptor's schema, `konkun.game.Game.catalog`).
 * @typedef {object} CatalogGame
 * @property {string} game
 * @property {Title} title
 * @property {string | null} page its game page's address under /static/ ("konchinka.js",
 *   "games/{game}/page.js" for a module a game package ships; gamepage.js); null: none
 * @property {number} min_seats
 * @property {number} max_seats
 * @property {{value: string, title?: Title}[]} variants
 * @property {RuleOption[]} options
 * @property {Record<string, string>} [rules] every option's default, as text
 * @property {Record<string, Title>} [explanations] one sentence per house rule
 * @property {RatingPool[]} [ratings]
 */

/**
 * GET /api/catalog.
 * @typedef {{games: CatalogGame[], [field: string]: any}} Catalog
 */

/**
 * A bot the server offers (GET /api/bots).
 * @typedef {{spec: string, names?: Title, [field: string]: any}} BotOffer
 */

// ---------------------------------------------------------------- game views

/**
 * The part of a game's view (Match.to_json(seat)) that the shared modules read: a
 * Konchinka view holds the current deal under `deal`, a Kunken view is flat (view.js).
 * The other fields belong to the game's page module.
 * @typedef {{
 *   deal?: View,
 *   seat?: number | null,
 *   hand?: string[],
 *   hand_sizes?: number[],
 *   legal?: string[],
 *   dealer?: number,
 *   deal_number?: number,
 *   to_move?: number | null,
 *   totals?: number[],
 *   winner?: number | null,
 *   match_winner?: number | null,
 *   over?: boolean,
 *   rules?: Record<string, any>,
 *   [field: string]: any,
 * }} View
 */

/**
 * What TableSocket passes to `onOther`: every message but a state, an error and a token.
 * @typedef {ChatLine | ClosedMessage | RematchMessage | RatedMessage | PongMessage} OtherMessage
 */

// ---------------------------------------------------------------- client → server

/**
 * @typedef {{type: "hello", token?: string}
 *   | {type: "action", action: string, turn: number | null}
 *   | {type: "sit", seat: number, contribution?: string}
 *   | {type: "leave"} | {type: "ping"} | {type: "cancel"}
 *   | {type: "rematch", contribution?: string}
 *   | {type: "vote_bot", seat: number} | {type: "back"} | {type: "resign"}
 *   | {type: "abort"} | {type: "claim"}
 *   | {type: "chat", text: string}} ClientMessage
 */

// ---------------------------------------------------------------- replays

/**
 * A seat's random contribution to a fair deal.
 * @typedef {object} Contribution
 * @property {number} seat
 * @property {string} value
 */

/**
 * @typedef {object} FairnessRecord
 * @property {string} scheme
 * @property {string} commitment
 * @property {string | null} [server_seed]
 * @property {Contribution[]} contributions
 */

/**
 * A stored game's record (a replay's `record`).
 * @typedef {object} GameRecord
 * @property {string} game
 * @property {string} seed
 * @property {number} num_seats
 * @property {Record<string, any>} rules
 * @property {FairnessRecord | null} [fairness]
 */

/**
 * One frame of a replay: the position after `turn` actions.
 * @typedef {object} ReplayFrame
 * @property {number} turn
 * @property {number | null} [actor]
 * @property {string | null} [action]
 * @property {import("./protocol.js").KunkenStep} [parts] the action's parts, for a game
 *   whose actions the server describes (Kunken)
 * @property {string} [digest]
 * @property {View} view
 * @property {View[]} [views] every seat's view (a replay with all hands open)
 * @property {boolean} [stand_in] the stand-in bot played this frame's action for the seat
 */

/**
 * GET /api/games/{id}/replay.
 * @typedef {object} Replay
 * @property {GameRecord} record
 * @property {TableSummary} table
 * @property {ReplayFrame[]} frames
 * @property {ChatLine[]} [chat]
 */
