// Russian and English texts: the shared ones here and in the *texts.js modules merged below;
// each game's own come with its page module (gamepage.js adds them with addTexts). The
// language comes from localStorage, else the browser.

import { ACCOUNT_TEXTS } from "./accounttexts.js";
import { COACH_TEXTS } from "./coachtexts.js";
import { TEACH_TEXTS } from "./teachtexts.js";
import { TABLE_TEXTS } from "./tabletexts.js";

/** Each language's texts by key.
 * @type {Record<string, Record<string, string>>} */
const DICT = {
  en: {
    "app.tagline": "Konchinka and Kunken, two Russian card games",
    "nav.lobby": "Lobby",
    "lang.switch": "Language",
    "me.nickname": "Your name",
    "me.save": "Play as this name",
    "me.hello": "You play as {name}",
    "me.change": "change",
    "me.needName": "Choose a name to take a seat.",
    "lobby.create": "New table",
    "lobby.game": "Game",
    "lobby.variant": "Variant",
    "lobby.seats": "Players",
    "lobby.seat": "Seat {n}",
    "lobby.you": "you",
    "lobby.human": "a person",
    "lobby.rules": "House rules",
    "lobby.createSit": "Create the table and sit down",
    "lobby.hints": "Hints",
    "bot.random": "Random",
    "bot.greedy": "Greedy",
    "bot.ismcts": "Strong",
    "lobby.open": "Tables",
    "lobby.noTables": "No open tables. Create one!",
    "lobby.join": "Join",
    "lobby.enter": "Open",
    "lobby.finished": "Finished games",
    "lobby.noFinished": "No finished games yet.",
    "lobby.replay": "Replay",
    "lobby.loading": "Loading…",
    "status.waiting": "waiting for players",
    "status.playing": "playing",
    "status.finished": "finished",
    "table.link": "Invite link",
    "table.copy": "Copy",
    "table.copied": "Copied",
    "table.sit": "Sit here",
    "table.empty": "empty seat",
    "table.bot": "bot",
    "table.offline": "offline",
    "table.waiting": "Waiting for players to sit down…",
    "table.yourTurn": "Your turn",
    "table.turnOf": "{name} to move",
    "table.over": "The game is over",
    "table.spectator": "You are watching",
    "table.connecting": "Connecting…",
    "table.reconnecting": "Connection lost, reconnecting in {s} s…",
    "table.connected": "Connected",
    "table.dealer": "dealer",
    "table.stock": "Stock",
    "table.hand": "Your hand",
    "table.moves": "Moves",
    "table.seatName": "Seat {n}",
    "table.youSuffix": "(you)",
    "table.winner": "{name} wins!",
    "table.backToLobby": "Back to the lobby",
    "table.replay": "Replay this game",
    "table.unknownGame": "This game cannot be shown.",
    "table.notFound": "No such table.",
    "k.cancel": "Cancel",
    "k.dealScored": "Deal {n} scored: {scores}",
    "k.points": "points",
    "k.paysNobody": "Nobody pays anything.",
    "r.hint": "Hint",
    "r.deal": "Deal {n}",
    "r.noWinner": "The match ends with no winner.",
    "replay.title": "Replay",
    "replay.view": "View",
    "replay.all": "all hands",
    "replay.seat": "as {name}",
    "replay.first": "First",
    "replay.prev": "Back",
    "replay.next": "Forward",
    "replay.last": "Last",
    "replay.move": "Move {i} of {n}",
    "replay.start": "Start",
    "replay.deal": "Jump to",
    "life.leave": "Leave the table",
    "life.cancel": "Cancel the table",
    "life.copyLink": "Copy this seat's link",
    "life.linkCopied": "Seat link copied",
    "life.linkHelp": "The seat link brings you back to this seat at this table from another browser or device. It opens nothing else: not your account, not another table. Keep it to yourself.",
    "life.badLink": "This seat link is not valid here.",
    "life.offer": "Offer a rematch",
    "life.accept": "Accept the rematch",
    "life.offered": "{names} offers a rematch",
    "life.waitingFor": "Rematch offered; waiting for {names}",
    "life.toRematch": "Go to the rematch",
    "life.cancelled": "This table was cancelled by its creator.",
    "life.expired": "Nobody joined this table in time; it was closed.",
    "life.resign": "Resign",
    "life.resignSure": "Give up the match? You will rank last.",
    "life.abort": "Abort the game",
    "life.abortSure": "End this table? Nobody has moved yet; nobody wins.",
    "life.yes": "Yes",
    "life.no": "No",
    "life.aborted": "The game was aborted before anyone moved.",
    "life.resignedBy": "Resigned: {names}",
    "err.not_creator": "Only the player who created this table may cancel it.",
    "err.hints_off": "This table plays without hints.",
    "clock.label": "Move clock",
    "clock.none": "none",
    "clock.seconds": "{n} s a move",
    "clock.away": "away: a bot plays",
    "clock.vote": "Let a bot play for {name}",
    "clock.youTimedOut": "Your time ran out: a bot plays for you until you are back.",
    "clock.youAway": "A bot plays for you while you are away.",
    "clock.back": "I'm back",
    "err.not_absent": "That player has not been away long enough.",
    "err.resigned": "You gave up this match: the stand-in plays your seat to the end.",
    "err.people_moved": "Someone has already moved: the game can no longer be aborted. You may resign.",
    "err.not_idle": "The player to move has not been idle long enough to claim the seat.",
    "fair.title": "Fair deal",
    "fair.checking": "Checking the cards against the seeds…",
    "fair.ok": "Verified: every deal comes from the seed the server committed to before the game and the random values of {c:player}; every move matches the published digest ({d:deal} recomputed).",
    "fair.okYours": "Verified: every deal comes from the seed the server committed to before the game and the random values of {c:player}, yours among them; every move matches the published digest ({d:deal} recomputed).",
    "fair.none": "Not verified: this game has no fairness data (it was played before fair deals existed).",
    "fair.insecure": "This browser cannot check the game here: Web Crypto needs https (or localhost).",
    "fair.scheme": "Not verified: unknown scheme {s}.",
    "fair.badCommitment": "Not verified: the revealed server seed does not match the commitment published at the start.",
    "fair.badSeed": "Not verified: the match seed is not the one the server seed and the contributions give.",
    "fair.missing": "Not verified: the player at seat {n} sent no random value.",
    "fair.notYours": "Not verified: the random value your browser sent is not in the record.",
    "fair.badDigest": "Not verified: move {i} does not match the published digest.",
    "fair.badDeal": "Not verified: deal {n} is not the one the seed gives.",
    "fair.noDeals": "Seeds and moves verified; choose “all hands” to recompute the deals.",
    "fair.badResult": "Not verified: the totals or the winner shown are not those of the last position.",
    "fair.unchecked": "Checked here: the seeds, every deal, the final result, and the digests, which bind every move and the players' names. Not checked here: the positions between the moves, the dates and the chat; the command-line check replays every move.",
    "chat.title": "Chat",
    "chat.placeholder": "Write to the table…",
    "chat.send": "Send",
    "chat.spectator": "watching",
    "chat.needName": "Choose a name to chat.",
    "chat.closed": "The game is over: its chat is closed.",
    "chat.q0": "Hi!",
    "chat.q1": "Good luck!",
    "chat.q2": "Nice move!",
    "chat.q3": "Thanks!",
    "chat.q4": "One moment, please",
    "chat.q5": "Good game!",
    "err.chat_empty": "Type something to send.",
    "err.chat_too_long": "A chat message is at most 200 characters.",
    "log.title": "Moves of the match",
    "log.deal": "Deal {n} · {count:move}",
    "log.standIn": "bot",
    "log.standInTitle": "The stand-in bot played this for the player, who was away, out of time or had resigned.",
    "sound.toggle": "Sound on your turn",
    "end.title": "Deal {n} is over",
    "end.close": "Next deal",
    "end.closeOver": "Close",
    "end.nextIn": "The next deal starts in {s} s",
    "err.network": "Network error: the server cannot be reached. Check the connection and try again.",
    "err.generic": "Error",
    "err.unknown": "Something went wrong (code {code}). Try again.",
    "err.bad_request": "The server did not understand that request. Reload the page and try again.",
    "err.nickname_too_long": "A name is at most 24 characters.",
    "nf.title": "Page not found",
    "terms.target": "to {n:point}",
    "terms.noClock": "no move clock",
    "terms.off": "off",
    "nf.text": "There is nothing at {path}.",
    "err.unknown_table": "There is no such table.",
    "err.unknown_game": "This game or variant is not offered here.",
    "err.invalid_rule": "One of the house rules has a value it does not take.",
    "err.unknown_bot": "That bot is not offered here.",
    "err.unauthorized": "Your name is no longer recognised here: choose your name again.",
    "err.seat_taken": "That seat is taken (or you already sit at this table).",
    "err.bad_seat": "There is no such seat.",
    "err.bad_contribution": "The random value for the fair deal was not accepted; reload the page and try again.",
    "err.not_seated": "You do not sit at this table.",
    "err.not_waiting": "The game has started: seats can no longer change.",
    "err.not_started": "The game has not started yet: seats are still free.",
    "err.not_your_turn": "It is not your turn.",
    "err.stale_turn": "The game moved on before your move arrived. Look again and play.",
    "err.invalid_action": "That move could not be read.",
    "err.illegal_move": "That move is not allowed now.",
    "err.game_over": "The game is over.",
    "err.not_finished": "This is possible once the game is over.",
    "err.chat_closed": "The chat of a finished game is closed.",
    "err.chat_full": "This table's chat is full.",
    "err.too_large": "That message is too long.",
    "err.rate_limited": "Too fast: wait a moment and try again.",
    "err.analysis_busy": "Other games are being analysed now. Try again in a minute.",
    "err.too_many_tables": "The server holds as many tables as it can. Try again later.",
    "err.too_many_tables.server": "The server holds as many tables as it can ({max}). Try again later.",
    "err.too_many_tables.player": "You already created {max} unfinished tables, your limit. Finish, resign or abort one in My games.",
    "err.too_many_tables.address": "Your network already created {max} unfinished tables, its limit. Finish, resign or abort one in My games.",
    "err.too_many_seats.player": "You already sit at {max} unfinished tables, your limit. Finish, resign or abort one in My games.",
    "err.too_many_seats.address": "Players on your network already hold {max} seats at unfinished tables, its limit.",
    "lobby.mine": "My games",
    "lobby.ratedAccounts": "Rated games are for accounts: claim your name with a password on your account page. A rated table plays the standard rules with a move clock.",
    "lobby.noMine": "You have no unfinished games.",
    "err.too_many_seats": "You already sit at as many unfinished tables as you may. Finish or leave one first.",
    "err.too_slow": "The connection was too slow. Check your network and try again.",
    "err.unsupported_media_type": "The page sent a request the server does not take. Reload the page.",
    "err.forbidden_origin": "This page may not connect from another site. Open it from its own address.",
    "err.too_many_connections": "The table or the server is full. Try again later.",
    "err.storage": "The server could not save that; nothing changed. Try again.",
    "err.not_found": "There is no such page.",
    "err.internal": "The server made a mistake; nothing changed. Try again.",
    "err.nicknameEmpty": "Type a name: it cannot be empty or only spaces.",
    "err.nicknameLong": "A name is at most {n} characters (this one has {count}).",
    "err.nicknameChars": "A name cannot hold control or hidden characters.",
  },
  ru: {
    "app.tagline": "Кончинка и Кункен — две русские карточные игры",
    "nav.lobby": "Лобби",
    "lang.switch": "Язык",
    "me.nickname": "Ваше имя",
    "me.save": "Играть под этим именем",
    "me.hello": "Вы играете как {name}",
    "me.change": "сменить",
    "me.needName": "Чтобы сесть за стол, выберите имя.",
    "lobby.create": "Новый стол",
    "lobby.game": "Игра",
    "lobby.variant": "Вариант",
    "lobby.seats": "Игроков",
    "lobby.seat": "Место {n}",
    "lobby.you": "вы",
    "lobby.human": "человек",
    "lobby.rules": "Домашние правила",
    "lobby.createSit": "Создать стол и сесть",
    "lobby.hints": "Подсказки",
    "bot.random": "Случайный",
    "bot.greedy": "Жадный",
    "bot.ismcts": "Сильный",
    "lobby.open": "Столы",
    "lobby.noTables": "Открытых столов нет. Создайте свой!",
    "lobby.join": "Сесть",
    "lobby.enter": "Открыть",
    "lobby.finished": "Сыгранные партии",
    "lobby.noFinished": "Сыгранных партий пока нет.",
    "lobby.replay": "Просмотр",
    "lobby.loading": "Загрузка…",
    "status.waiting": "ждёт игроков",
    "status.playing": "идёт игра",
    "status.finished": "окончена",
    "table.link": "Ссылка для приглашения",
    "table.copy": "Копировать",
    "table.copied": "Скопировано",
    "table.sit": "Сесть сюда",
    "table.empty": "свободно",
    "table.bot": "бот",
    "table.offline": "не в сети",
    "table.waiting": "Ждём, пока все сядут…",
    "table.yourTurn": "Ваш ход",
    "table.turnOf": "Ходит {name}",
    "table.over": "Игра окончена",
    "table.spectator": "Вы наблюдаете",
    "table.connecting": "Соединение…",
    "table.reconnecting": "Связь потеряна, повтор через {s} с…",
    "table.connected": "Соединено",
    "table.dealer": "сдаёт",
    "table.stock": "Колода",
    "table.hand": "Ваши карты",
    "table.moves": "Ходы",
    "table.seatName": "Место {n}",
    "table.youSuffix": "(вы)",
    "table.winner": "Победил(а) {name}!",
    "table.backToLobby": "В лобби",
    "table.replay": "Просмотреть партию",
    "table.unknownGame": "Эту игру показать нельзя.",
    "table.notFound": "Такого стола нет.",
    "k.cancel": "Отмена",
    "k.dealScored": "Кон {n} сыгран: {scores}",
    "k.points": "очки",
    "k.paysNobody": "Никто никому не платит.",
    "r.hint": "Подсказка",
    "r.deal": "Кон {n}",
    "r.noWinner": "Матч окончен без победителя.",
    "replay.title": "Просмотр партии",
    "replay.view": "Вид",
    "replay.all": "все карты открыты",
    "replay.seat": "как видит {name}",
    "replay.first": "В начало",
    "replay.prev": "Назад",
    "replay.next": "Вперёд",
    "replay.last": "В конец",
    "replay.move": "Ход {i} из {n}",
    "replay.start": "Начало",
    "replay.deal": "Перейти к",
    "life.leave": "Уйти из-за стола",
    "life.cancel": "Отменить стол",
    "life.copyLink": "Скопировать ссылку на место",
    "life.linkCopied": "Ссылка на место скопирована",
    "life.linkHelp": "Ссылка на место вернёт вас на это место за этим столом из другого браузера или с другого устройства. Больше она ничего не открывает: ни ваш аккаунт, ни другие столы. Не давайте её другим.",
    "life.badLink": "Эта ссылка на место здесь не действует.",
    "life.offer": "Предложить реванш",
    "life.accept": "Принять реванш",
    "life.offered": "{names} предлагает реванш",
    "life.waitingFor": "Реванш предложен; ждём: {names}",
    "life.toRematch": "К реваншу",
    "life.cancelled": "Создатель отменил этот стол.",
    "life.expired": "За этот стол вовремя никто не сел; он закрыт.",
    "life.resign": "Сдаться",
    "life.resignSure": "Сдать партию? Вы займёте последнее место.",
    "life.abort": "Прервать игру",
    "life.abortSure": "Закрыть стол? Ещё никто не ходил; победителя не будет.",
    "life.yes": "Да",
    "life.no": "Нет",
    "life.aborted": "Игра прервана: никто ещё не сделал хода.",
    "life.resignedBy": "Сдались: {names}",
    "err.not_creator": "Отменить стол может только тот, кто его создал.",
    "err.hints_off": "За этим столом играют без подсказок.",
    "clock.label": "Время на ход",
    "clock.none": "без часов",
    "clock.seconds": "{n} с на ход",
    "clock.away": "нет на месте: играет бот",
    "clock.vote": "Пусть за {name} играет бот",
    "clock.youTimedOut": "Ваше время вышло: пока вас нет, за вас играет бот.",
    "clock.youAway": "Пока вас нет, за вас играет бот.",
    "clock.back": "Я вернулся",
    "err.not_absent": "Этого игрока нет ещё недостаточно долго.",
    "err.resigned": "Вы сдали эту партию: за ваше место до конца играет бот.",
    "err.people_moved": "Кто-то уже сделал ход: игру больше нельзя прервать. Можно сдаться.",
    "err.not_idle": "Игрок, чей ход, бездействует ещё недостаточно долго.",
    "fair.title": "Честная раздача",
    "fair.checking": "Проверяем карты по зёрнам…",
    "fair.ok": "Проверено: каждая раздача получена из зерна, которое сервер зафиксировал до начала игры, и случайных чисел {c:player}; каждый ход совпадает с опубликованным отпечатком (пересчитано раздач: {d}).",
    "fair.okYours": "Проверено: каждая раздача получена из зерна, которое сервер зафиксировал до начала игры, и случайных чисел {c:player}, включая ваше; каждый ход совпадает с опубликованным отпечатком (пересчитано раздач: {d}).",
    "fair.none": "Не проверено: у этой партии нет данных для проверки (она сыграна до появления честных раздач).",
    "fair.insecure": "Этот браузер не может проверить партию здесь: Web Crypto работает только по https (или на localhost).",
    "fair.scheme": "Не проверено: неизвестная схема {s}.",
    "fair.badCommitment": "Не проверено: раскрытое зерно сервера не совпадает с обязательством, опубликованным в начале.",
    "fair.badSeed": "Не проверено: зерно партии не то, что дают зерно сервера и вклады игроков.",
    "fair.missing": "Не проверено: игрок на месте {n} не прислал случайного числа.",
    "fair.notYours": "Не проверено: случайного числа, которое отправил ваш браузер, нет в записи.",
    "fair.badDigest": "Не проверено: ход {i} не совпадает с опубликованным отпечатком.",
    "fair.badDeal": "Не проверено: раздача {n} не та, что даёт зерно.",
    "fair.noDeals": "Зёрна и ходы проверены; выберите «все карты открыты», чтобы пересчитать раздачи.",
    "fair.badResult": "Не проверено: показанные очки или победитель не те, что в последней позиции.",
    "fair.unchecked": "Здесь проверены: зёрна, каждая раздача, итог партии и отпечатки, которые связывают каждый ход и имена игроков. Здесь не проверены: позиции между ходами, даты и чат; каждый ход переигрывает проверка в командной строке.",
    "chat.title": "Чат",
    "chat.placeholder": "Написать за стол…",
    "chat.send": "Отправить",
    "chat.spectator": "зритель",
    "chat.needName": "Чтобы писать в чат, выберите имя.",
    "chat.closed": "Игра окончена: чат закрыт.",
    "chat.q0": "Привет!",
    "chat.q1": "Удачи!",
    "chat.q2": "Хороший ход!",
    "chat.q3": "Спасибо!",
    "chat.q4": "Минутку, пожалуйста",
    "chat.q5": "Хорошая игра!",
    "err.chat_empty": "Напишите что-нибудь.",
    "err.chat_too_long": "В сообщении чата не больше 200 знаков.",
    "log.title": "Ходы партии",
    "log.deal": "Кон {n} · {count:move}",
    "log.standIn": "бот",
    "log.standInTitle": "За игрока сходил бот-заместитель: игрока не было, его время вышло или он сдался.",
    "sound.toggle": "Звук, когда ваш ход",
    "end.title": "Кон {n} окончен",
    "end.close": "Следующий кон",
    "end.closeOver": "Закрыть",
    "end.nextIn": "Следующий кон — через {s} с",
    "err.network": "Ошибка сети: сервер недоступен. Проверьте связь и попробуйте ещё раз.",
    "err.generic": "Ошибка",
    "err.unknown": "Что-то пошло не так (код {code}). Попробуйте ещё раз.",
    "err.bad_request": "Сервер не понял запрос. Обновите страницу и попробуйте снова.",
    "err.nickname_too_long": "В имени не больше 24 знаков.",
    "nf.title": "Страница не найдена",
    "terms.target": "до {n:point}",
    "terms.noClock": "без часов на ход",
    "terms.off": "нет",
    "nf.text": "По адресу {path} ничего нет.",
    "err.unknown_table": "Такого стола нет.",
    "err.unknown_game": "Такой игры или варианта здесь нет.",
    "err.invalid_rule": "У одного из домашних правил недопустимое значение.",
    "err.unknown_bot": "Такого бота здесь нет.",
    "err.unauthorized": "Сервер вас больше не узнаёт: выберите имя заново.",
    "err.seat_taken": "Это место занято (или вы уже сидите за этим столом).",
    "err.bad_seat": "Такого места нет.",
    "err.bad_contribution": "Случайное число для честной раздачи не принято; обновите страницу и попробуйте снова.",
    "err.not_seated": "Вы не сидите за этим столом.",
    "err.not_waiting": "Игра началась: места больше не меняются.",
    "err.not_started": "Игра ещё не началась: есть свободные места.",
    "err.not_your_turn": "Сейчас не ваш ход.",
    "err.stale_turn": "Игра ушла вперёд, пока шёл ваш ход. Посмотрите ещё раз и ходите.",
    "err.invalid_action": "Этот ход не удалось прочитать.",
    "err.illegal_move": "Так ходить сейчас нельзя.",
    "err.game_over": "Игра окончена.",
    "err.not_finished": "Это будет доступно, когда игра закончится.",
    "err.chat_closed": "Чат законченной игры закрыт.",
    "err.chat_full": "Чат этого стола заполнен.",
    "err.too_large": "Слишком длинное сообщение.",
    "err.rate_limited": "Слишком быстро: подождите немного и повторите.",
    "err.analysis_busy": "Сейчас анализируются другие партии. Попробуйте через минуту.",
    "err.too_many_tables": "На сервере уже максимум столов. Попробуйте позже.",
    "err.too_many_tables.server": "На сервере уже максимум столов ({max}). Попробуйте позже.",
    "err.too_many_tables.player": "Вы уже создали {max} неоконченных столов — это ваш предел. Доиграйте, сдайтесь или прервите один в разделе «Мои игры».",
    "err.too_many_tables.address": "С вашей сети уже создано {max} неоконченных столов — это её предел. Доиграйте, сдайтесь или прервите один в разделе «Мои игры».",
    "err.too_many_seats.player": "Вы уже сидите за {max} неоконченными столами — это ваш предел. Доиграйте, сдайтесь или прервите один в разделе «Мои игры».",
    "err.too_many_seats.address": "Игроки вашей сети уже заняли {max} мест за неоконченными столами — это её предел.",
    "lobby.mine": "Мои игры",
    "lobby.ratedAccounts": "Рейтинговые игры — только для аккаунтов: закрепите имя паролем на странице аккаунта. Рейтинговый стол играет по стандартным правилам и с часами.",
    "lobby.noMine": "У вас нет неоконченных игр.",
    "err.too_many_seats": "Вы уже сидите за максимумом неоконченных столов. Сначала доиграйте или выйдите из одного.",
    "err.too_slow": "Соединение слишком медленное. Проверьте сеть и попробуйте снова.",
    "err.unsupported_media_type": "Страница отправила запрос, который сервер не принимает. Обновите страницу.",
    "err.forbidden_origin": "Эта страница не может подключаться с другого сайта. Откройте её по её собственному адресу.",
    "err.too_many_connections": "Стол или сервер заполнен. Попробуйте позже.",
    "err.storage": "Сервер не смог это сохранить; ничего не изменилось. Повторите.",
    "err.not_found": "Такой страницы нет.",
    "err.internal": "Ошибка на сервере; ничего не изменилось. Повторите.",
    "err.nicknameEmpty": "Введите имя: оно не может быть пустым или из одних пробелов.",
    "err.nicknameLong": "В имени не больше {n} знаков (здесь {count}).",
    "err.nicknameChars": "В имени не может быть управляющих или невидимых символов.",
  },
};

for (const code of Object.keys(ACCOUNT_TEXTS)) Object.assign(DICT[code], ACCOUNT_TEXTS[code]);
for (const code of Object.keys(COACH_TEXTS)) Object.assign(DICT[code], COACH_TEXTS[code]);
for (const code of Object.keys(TEACH_TEXTS)) Object.assign(DICT[code], TEACH_TEXTS[code]);
for (const code of Object.keys(TABLE_TEXTS)) Object.assign(DICT[code], TABLE_TEXTS[code]);

export const LANGS = ["ru", "en"];
const KEY = "konkun.lang";

/** The stored language, else the browser's first the page has, else English.
 * @returns {string} */
function detect() {
  const stored = localStorage.getItem(KEY);
  if (stored && DICT[stored]) return stored;
  const langs = navigator.languages && navigator.languages.length ? navigator.languages
    : [navigator.language || "en"];
  for (const l of langs) {
    const base = String(l).toLowerCase().split("-")[0];
    if (DICT[base]) return base;
  }
  return "en";
}

let current = detect();
/** @type {Set<(code: string) => void>} */
const listeners = new Set();

/** The current language code ("ru" or "en"). */
export function lang() {
  return current;
}

/** Switch the language, remember it, and notify listeners.
 * @param {string} code */
export function setLang(code) {
  if (!DICT[code] || code === current) return;
  current = code;
  localStorage.setItem(KEY, code);
  document.documentElement.lang = code;
  for (const fn of listeners) fn(code);
}

/** Call `fn` whenever the language changes.
 * @param {(code: string) => void} fn */
export function onLangChange(fn) {
  listeners.add(fn);
}

/** Nouns counted in texts, in each plural form the language's rules (Intl.PluralRules)
 * name: a text writes `{count:move}` for "1 move", "5 moves", "1 ход", "3 хода", "5 ходов".
 * @type {Record<string, Record<string, Record<string, string>>>} */
const NOUNS = {
  en: {
    move: { one: "move", other: "moves" },
    deal: { one: "deal", other: "deals" },
    player: { one: "player", other: "players" },
    renewal: { one: "renewal", other: "renewals" },
    inaccuracy: { one: "inaccuracy", other: "inaccuracies" },
    mistake: { one: "mistake", other: "mistakes" },
    blunder: { one: "blunder", other: "blunders" },
    point: { one: "point", other: "points" },
  },
  ru: {
    move: { one: "ход", few: "хода", many: "ходов", other: "хода" },
    deal: { one: "раздача", few: "раздачи", many: "раздач", other: "раздачи" },
    // the genitive: «случайных чисел 1 игрока», «после 1 переворота»
    player: { one: "игрока", few: "игроков", many: "игроков", other: "игроков" },
    renewal: { one: "переворота", few: "переворотов", many: "переворотов", other: "переворота" },
    point: { one: "очка", few: "очков", many: "очков", other: "очка" },  // «до 21 очка»
  },
};

/** `n` and `noun` in the plural form the current language's rules choose for `n`.
 * @param {number | string} n
 * @param {string} noun
 * @returns {string} */
export function plural(n, noun) {
  const forms = NOUNS[current][noun] ?? NOUNS.en[noun];
  if (!forms) return String(n);
  const form = new Intl.PluralRules(current).select(Number(n));
  return `${n} ${forms[form] ?? forms.other}`;
}

/** `text` with its placeholders filled from `params`: {name} by the value, {n:noun} by
 * the number and the noun in its plural form.
 * @param {string} text
 * @param {Record<string, any>} [params]
 * @returns {string} */
export function fill(text, params = {}) {
  return text.replace(/\{(\w+)(?::(\w+))?\}/g, (/** @type {string} */ whole,
    /** @type {string} */ k, /** @type {string | undefined} */ noun) => {
    if (!(k in params)) return whole;
    return noun ? plural(params[k], noun) : String(params[k]);
  });
}

/** The text for `key` in the current language, with its placeholders filled (see fill).
 * @param {string} key
 * @param {Record<string, any>} [params]
 * @returns {string} */
export function t(key, params = {}) {
  return fill(DICT[current][key] ?? DICT.en[key] ?? key, params);
}

/** The player's text for a server error code (docs/protocol.md), in the current language;
 * never the server's own message, which is written for developers.
 * @param {string} code
 * @returns {string} */
export function errorText(code) {
  return has(`err.${code}`) ? t(`err.${code}`) : t("err.unknown", { code });
}

/** Add a game's texts (a game page's `texts`, gamepage.js) to the dictionary: each
 * language the page has gets the game's texts in it; a key the dictionary has already
 * keeps its text (a game cannot change the shared texts, nor another game's).
 * @param {Record<string, Record<string, string>>} texts by language, then by key */
export function addTexts(texts) {
  for (const [code, entries] of Object.entries(texts)) {
    const into = DICT[code];
    if (!into) continue;
    for (const [key, text] of Object.entries(entries)) {
      if (!(key in into)) into[key] = text;
    }
  }
}

/** Whether a key exists (used for optional texts such as rule names).
 * @param {string} key
 * @returns {boolean} */
export function has(key) {
  return key in DICT[current] || key in DICT.en;
}

document.documentElement.lang = current;
