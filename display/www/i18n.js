// The page's own words in English and Vietnamese. Announcements come from the
// server already worded in both languages (display/announcer.cpp).
"use strict";
const I18N = {
  en: {
    teach: "Teaching", operator: "Operator", sound_on: "Sound on", sound_off: "Sound off", teaching_mode: "Teaching mode",
    show_captures: "All captures", teach_hint: "Touch a piece to see its moves.", moves: "Moves",
    record: "Record", token: "Token", unlock: "Unlock", new_game: "New game", start: "Start", undo: "Undo",
    confirm: "Confirm move", correct: "Correct move", declare: "Declare result", set_clock: "Set clocks",
    minutes: "min", pause: "Pause clock", resume: "Resume clock", camera: "Camera", move_notation: "move (notation)", offer_draw: "offers a draw",
    accept_draw: "accepts the draw", resign: "resigns", flag: "ran out of time", points: "pts", in_hand: "in hand",
    status_setup: "setting up", status_playing: "playing", status_illegal: "illegal move — restore the board",
    status_over: "game over", disconnected: "reconnecting…", no_moves: "No legal move for this piece.",
    no_captures: "No capture available.", captures_for: "Captures for", token_ok: "unlocked", token_bad: "wrong token",
    white: "White", black: "Black", red: "Red", blue: "Blue", to_move: "to move",
    game_brazilian: "Brazilian draughts", game_international: "International draughts", game_english: "English checkers",
    game_morris9: "Nine men's morris", game_morris3: "Three men's morris", game_morris6: "Six men's morris",
    game_morris12: "Twelve men's morris", game_cotoan: "Cờ toán Việt Nam", game_cotulenh: "Cờ tư lệnh",
  },
  vi: {
    teach: "Học", operator: "Điều khiển", sound_on: "Bật tiếng", sound_off: "Tắt tiếng", teaching_mode: "Chế độ học",
    show_captures: "Mọi nước ăn", teach_hint: "Chạm vào một quân để xem nước đi.", moves: "Nước đi",
    record: "Biên bản", token: "Mã", unlock: "Mở khóa", new_game: "Ván mới", start: "Bắt đầu", undo: "Lùi nước",
    confirm: "Xác nhận nước", correct: "Sửa nước", declare: "Công bố kết quả", set_clock: "Đặt đồng hồ",
    minutes: "phút", pause: "Dừng đồng hồ", resume: "Chạy đồng hồ", camera: "Camera", move_notation: "nước đi (ký hiệu)", offer_draw: "đề nghị hòa",
    accept_draw: "chấp nhận hòa", resign: "xin thua", flag: "hết giờ", points: "điểm", in_hand: "trong tay",
    status_setup: "đang xếp quân", status_playing: "đang chơi", status_illegal: "nước sai — hãy đặt lại bàn cờ",
    status_over: "kết thúc", disconnected: "đang kết nối lại…", no_moves: "Quân này không có nước đi hợp lệ.",
    no_captures: "Không có nước ăn nào.", captures_for: "Nước ăn của", token_ok: "đã mở khóa", token_bad: "sai mã",
    white: "Trắng", black: "Đen", red: "Đỏ", blue: "Xanh", to_move: "đi",
    game_brazilian: "Cờ đam Brazil", game_international: "Cờ đam quốc tế", game_english: "Cờ đam Anh",
    game_morris9: "Cờ cối xay 9 quân", game_morris3: "Cờ cối xay 3 quân", game_morris6: "Cờ cối xay 6 quân",
    game_morris12: "Cờ cối xay 12 quân", game_cotoan: "Cờ toán Việt Nam", game_cotulenh: "Cờ tư lệnh",
  },
};

function t(lang, key) {
  return (I18N[lang] && I18N[lang][key]) || I18N.en[key] || key;
}

function applyI18n(lang) {
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(lang, el.dataset.i18n);
  for (const el of document.querySelectorAll("[data-i18n-title]")) el.title = t(lang, el.dataset.i18nTitle);
  for (const el of document.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(lang, el.dataset.i18nPlaceholder);
}
