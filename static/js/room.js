// Trial room client for the JSON websocket protocol (docs/protocol.md):
// renders turns as they stream, enables the composer when one of your seats is awaited,
// reconnects with backoff and resumes after the last complete turn it showed. Frames are
// delivered at most once (a Redis restart loses those sent meanwhile, the socket stays
// open), so a turn that starts past a missing one, or a silent room, asks for a replay on
// the open socket too.
(() => {
  "use strict";
  const room = document.getElementById("room");
  if (!room) return;
  const mySeats = new Set((room.dataset.mySeats || "").split(",").filter(Boolean));
  const mySides = new Set((room.dataset.mySides || "").split(",").filter(Boolean));
  // What people read for the protocol's ids, in the case's language (the page puts them in).
  const names = JSON.parse(document.getElementById("room-names").textContent);
  const named = (kind, id) => (names[kind] && names[kind][id]) || id || "";
  // What the room says, in the interface's language (the page puts it in, translated):
  // ``phrase("speaking", { speaker, phase })`` fills the %(speaker)s and %(phase)s of its text.
  const strings = JSON.parse(document.getElementById("room-strings").textContent);
  const fill = (text, values = {}) => text.replace(/%\((\w+)\)s/g, (_, name) => values[name] ?? "");
  const phrase = (key, values = {}) => fill(strings[key] || key, values);
  const transcript = document.getElementById("transcript");
  const banner = { stage: document.getElementById("banner-stage"), turn: document.getElementById("banner-turn"), link: document.getElementById("connection") };
  const composer = { form: document.getElementById("composer"), text: document.getElementById("composer-text"), send: document.getElementById("composer-send"), label: document.getElementById("composer-label"), decision: document.getElementById("composer-decision"), last: document.getElementById("composer-last"), lastBox: document.getElementById("composer-last-box") };
  // The acts whose speaker may end their phase early: "This is my last question".
  const closingActs = new Set((room.dataset.closingActs || "").split(",").filter(Boolean));
  const objectButton = document.getElementById("object");
  const groundMenu = document.getElementById("objection-grounds");
  const hearings = new Set((room.dataset.hearings || "").split(",").filter(Boolean));
  const graceMs = Number(room.dataset.objectionGraceMs || 0);
  let windowClose = null;
  const controlStatus = document.getElementById("control-status");
  const objectionStatus = document.getElementById("objection-status");
  const newTurns = document.getElementById("new-turns");
  let socket = null, retry = 0, awaited = null, ended = false, resumedAt = -1, idle = null;
  // A finished trial has no live connection to speak of: its badge goes.
  let finished = room.dataset.status === "finished";
  // The ``client_id`` of the statement sent and not yet recorded: its words stay in the box
  // until the court records them (``turn.end``), and a refusal leaves them there.
  let pending = null;
  // The objection's status line lasts until a turn after this one starts.
  let objectionNoteUntil = Infinity;
  const IDLE_MS = 10000;

  const lastSeq = () => {
    const done = transcript.querySelectorAll("li.turn[data-seq]:not(.streaming)");
    return done.length ? Number(done[done.length - 1].dataset.seq) : 0;
  };

  // The room keeps its place: the transcript follows the latest turn unless the reader has
  // scrolled up to read; then "new turns ↓" says more came and jumps down to them.
  let following = true;
  const nearBottom = () => transcript.scrollHeight - transcript.scrollTop - transcript.clientHeight < 48;
  function follow() {
    if (following) {
      transcript.scrollTop = transcript.scrollHeight;
      if (newTurns) newTurns.hidden = true;
    } else if (newTurns) {
      newTurns.hidden = false;
    }
  }
  function latestShow() {
    following = true;
    follow();
    // The transcript's own box is followed; the page brings the box's end into view too
    // (a finished trial opens at its debrief instead).
    const last = transcript.lastElementChild;
    if (!document.getElementById("debrief") && last && last.getBoundingClientRect().bottom > window.innerHeight) transcript.scrollIntoView({ block: "end" });
  }
  transcript.addEventListener("scroll", () => {
    following = nearBottom();
    if (following && newTurns) newTurns.hidden = true;
  }, { passive: true });
  if (newTurns) newTurns.addEventListener("click", latestShow);

  // A ruling sustained strikes the statement objected to (the turn before the objection):
  // it stays on the record, marked.
  function struckMark(ruling) {
    const objection = document.getElementById(`turn-${ruling.seq - 1}`);
    const statement = objection && objection.previousElementSibling;
    if (!statement || statement.classList.contains("struck")) return;
    statement.classList.add("struck");
    const note = document.createElement("span");
    note.className = "badge struck-note";
    note.textContent = phrase("struck");
    statement.querySelector(".text").before(note, " ");
  }

  function turnItem(frame) {
    let item = document.getElementById(`turn-${frame.seq}`);
    if (!item) {
      item = document.createElement("li");
      item.id = `turn-${frame.seq}`;
      item.dataset.seq = frame.seq;
      item.className = "turn streaming";
      const speaker = document.createElement("span");
      speaker.className = "speaker";
      speaker.textContent = frame.speaker || "";
      const where = document.createElement("span");
      where.className = "muted small";
      where.textContent = ` ${named("stages", frame.stage)} · ${named("phases", frame.phase)}`;
      const text = document.createElement("div");
      text.className = "text";
      item.append(speaker, where, text);
      transcript.append(item);
    }
    return item;
  }

  // The sectioned editor of a document the awaited act writes (room-document.js).
  const editor = window.legalsimDocumentEditor(room, composer.text);

  // Objections: counsel object to the other side's statement in a hearing while it is made
  // and for the grace period after it ends, on a ground chosen from the list.
  const objectable = (frame) => Boolean(objectButton) && hearings.has(frame.stage) && frame.side !== "court" && !mySides.has(frame.side) && !mySeats.has(frame.seat);

  // Objections are made in hearings only: elsewhere the button is not there at all.
  function objectionsHeard(stage) {
    if (!objectButton) return;
    objectButton.hidden = finished || !hearings.has(stage);
    if (objectButton.hidden) objectionWindow(false);
  }

  function objectionNote(key, values, until = Infinity) {
    if (!objectionStatus) return;
    objectionStatus.textContent = key ? phrase(key, values) : "";
    objectionNoteUntil = until;
  }

  function objectionWindow(open) {
    clearTimeout(windowClose);
    if (!objectButton) return;
    objectButton.disabled = !open;
    if (!open) groundMenuShow(false);
  }

  function groundMenuShow(shown) {
    groundMenu.hidden = !shown;
    objectButton.setAttribute("aria-expanded", String(shown));
  }

  // The procedure's timeline: the stage and phase being heard are marked, those before done.
  function timelineMark(stageId, phaseId) {
    const stages = Array.from(document.querySelectorAll("#timeline .timeline-stage"));
    const at = stages.findIndex((item) => item.dataset.stage === stageId);
    if (at < 0) return;
    marked(stages, at);
    const phases = Array.from(stages[at].querySelectorAll("[data-phase]"));
    const phaseAt = phases.findIndex((item) => item.dataset.phase === phaseId);
    if (phaseAt >= 0) marked(phases, phaseAt);
  }

  // Items before ``at`` are done, ``at`` is current, the rest are ahead.
  function marked(items, at) {
    items.forEach((item, index) => {
      item.classList.toggle("done", index < at);
      item.classList.toggle("current", index === at);
      item.classList.toggle("ahead", index > at);
    });
  }

  // The banner says what is true now: the stage (or paused, preparing, ended) and what is
  // happening in it (who speaks, whose turn it is and what is expected).
  function status(headline, detail) {
    banner.stage.textContent = headline;
    banner.turn.textContent = detail;
  }

  // How the awaited act is done: the procedure's skill card for it, on request.
  function guidanceShow(guidance) {
    const box = document.getElementById("composer-guidance");
    if (!box) return;
    box.hidden = !guidance;
    if (!guidance) return;
    document.getElementById("guidance-task").textContent = guidance.task;
    document.getElementById("guidance-checklist").replaceChildren(...guidance.checklist.map((item) => {
      const line = document.createElement("li");
      line.textContent = item;
      return line;
    }));
  }

  function setAwaited(frame) {
    awaited = frame && mySeats.has(frame.seat) ? frame : null;
    if (!composer.form) return;
    composer.text.disabled = composer.send.disabled = !awaited;
    const placeholder = !awaited ? "placeholderWaiting" : hearings.has(awaited.stage) ? "placeholderTurn" : "placeholderTalk";
    composer.text.placeholder = composer.text.dataset[placeholder] || "";
    // A decision (mediation, appeal) is two buttons and no default: the words typed (if any) go with the choice.
    const choices = [...composer.decision.querySelectorAll("button")].filter((button) => awaited && button.dataset.act === awaited.act);
    const deciding = choices.length > 0;
    composer.decision.hidden = !deciding;
    composer.send.hidden = deciding;
    composer.decision.querySelectorAll("button").forEach((button) => { button.hidden = button.disabled = !choices.includes(button); });
    composer.send.textContent = awaited && awaited.document ? awaited.prompt : phrase("speak");
    if (composer.last) {
      composer.last.hidden = !(awaited && closingActs.has(awaited.act));
      composer.lastBox.checked = false;
    }
    composer.label.textContent = awaited ? phrase("your_turn_as", { speaker: named("seats", awaited.seat), prompt: awaited.prompt }) : phrase("waiting_for_your_turn");
    guidanceShow(awaited && awaited.guidance);
    editor.show(awaited);
    lengthCount();
    if (awaited && !awaited.document) composer.text.focus();
  }

  const note = window.legalsimComposerNote(composer.form);

  // Characters as the server counts them (code points): the statement, or all the sections.
  function composedLength() {
    if (!composer.form) return 0;
    const texts = awaited && awaited.document ? Object.values(editor.values()) : [composer.text.value.trim()];
    return texts.reduce((total, text) => total + [...text].length, 0);
  }

  const lengthCount = () => note.measured(composedLength());

  function sayPending(say) {
    if (lengthCount()) return note.tooLong(composedLength());
    note.says(null);
    pending = say.client_id;
    composer.send.disabled = true;
    socket.send(JSON.stringify(say));
  }

  // The court recorded what was sent: the box empties (a document's draft goes with it).
  function sayRecorded() {
    if (awaited && awaited.document) editor.filed(awaited);
    pending = null;
    composer.text.value = "";
    lengthCount();
  }

  // The court refused what was sent: the words stay, the button works again, the note says why.
  function sayRefused(code) {
    pending = null;
    composer.send.disabled = !awaited;
    note.refused(code);
  }

  const handlers = {
    "turn.start": (frame) => {
      turnItem(frame);
      objectionsHeard(frame.stage);
      if (frame.seq > objectionNoteUntil) objectionNote(null);
      timelineMark(frame.stage, frame.phase);
      status(named("stages", frame.stage), phrase("speaking", { speaker: frame.speaker, phase: named("phases", frame.phase) }));
      objectionWindow(objectable(frame));
      follow();
    },
    "turn.delta": (frame) => {
      const text = turnItem(frame).querySelector(".text");
      text.textContent = text.textContent.slice(0, frame.offset ?? text.textContent.length) + frame.text;
      if (following) follow();
    },
    "turn.end": (frame) => {
      const item = turnItem(frame);
      item.querySelector(".text").textContent = frame.text;
      item.classList.remove("streaming");
      if (frame.author === "human") item.classList.add("human");
      if (pending && frame.author === "human" && mySeats.has(frame.seat)) sayRecorded();
      if (awaited && frame.seat === awaited.seat) setAwaited(null);
      // The other side's statement may still be objected to for the grace period after it ends.
      if (objectable(frame) && graceMs > 0) {
        objectionWindow(true);
        windowClose = setTimeout(() => objectionWindow(false), graceMs);
      } else {
        objectionWindow(false);
      }
      // The interview checklist ticks as the lawyer asks and the client tells.
      if (document.getElementById("agenda")) caseFileRefresh();
      if (frame.act === "rule_objection") {
        if (frame.ruling === "sustained") struckMark(frame);
        // The ruling stays in view while the statement it concerns goes on, no longer.
        objectionNote(frame.ruling === "sustained" ? "objection_sustained" : "objection_overruled", {}, frame.seq + 1);
      }
      follow();
    },
    "objection.refused": (frame) => {
      if (!mySeats.has(frame.seat)) return;
      objectionNote("objection_refused", { reason: frame.message }, lastSeq() + 1);
    },
    await: (frame) => {
      objectionsHeard(frame.stage);
      objectionWindow(false);
      timelineMark(frame.stage, frame.phase);
      setAwaited(frame);
      const values = { speaker: frame.speaker, prompt: frame.prompt, phase: named("phases", frame.phase) };
      status(named("stages", frame.stage), phrase(mySeats.has(frame.seat) ? "your_turn" : "waiting_for", values));
    },
    stage: (frame) => {
      if (frame.status === "started") {
        timelineMark(frame.stage, null);
        objectionsHeard(frame.stage);
        objectionNote(null);
      }
      const stage = named("stages", frame.stage);
      status(stage, phrase(frame.status === "started" ? "stage_begins" : "stage_over", { stage }));
      caseFileRefresh();
    },
    preparing: (frame) => {
      setAwaited(null);
      const playing = frame.stage ? named("stages", frame.stage) : phrase("earlier_stages");
      const playingText = phrase("agents_playing", { stages: playing, first: named("stages", frame.first_stage) });
      const progress = frame.number ? ` (${phrase("stage_of", { number: frame.number, count: frame.count })})` : "";
      status(phrase("preparing"), playingText + progress);
    },
    artifact: (frame) => { banner.turn.textContent = phrase("document_filed", { title: frame.title }); caseFileRefresh(); },
    // The court tells everyone what was decided outside the hearing (who appealed, or that
    // the judgment is final), in the transcript where the trial is followed.
    notice: (frame) => {
      const item = document.createElement("li");
      item.className = "turn notice";
      const title = document.createElement("span");
      title.className = "speaker";
      title.textContent = frame.title;
      const where = document.createElement("span");
      where.className = "muted small";
      where.textContent = ` ${named("stages", frame.stage)}`;
      const text = document.createElement("div");
      text.className = "text";
      text.textContent = frame.text;
      item.append(title, where, text);
      transcript.append(item);
      follow();
    },
    // A refusal is said next to what was refused; the connection's badge keeps saying "live".
    error: (frame) => {
      if (frame.code === "trial_paused" || frame.code === "agent_failed") {
        setAwaited(null);
        status(phrase("paused"), frame.message);
      }
      if (pending) sayRefused(frame.code);
      if (controlStatus) controlStatus.textContent = frame.message;
    },
    control: (frame) => {
      // The procedure moved: whatever was awaited may be no longer; a fresh await follows.
      setAwaited(null);
      if (frame.action === "pause") status(phrase("paused"), phrase(frame.by === "instructor" ? "instructor_paused" : "judge_paused"));
      if (frame.action === "resume") status(phrase("resumed"), phrase("goes_on"));
      const action = (strings.actions && strings.actions[frame.action]) || frame.action;
      if (controlStatus) controlStatus.textContent = frame.phase ? phrase("control_moved", { action, phase: named("phases", frame.phase) }) : action;
    },
    end: () => {
      ended = finished = true;
      banner.link.hidden = true;
      objectionsHeard(null);
      status(phrase("ended"), "");
      setAwaited(null);
      objectionWindow(false);
      document.querySelectorAll("#timeline li").forEach((item) => { item.className = item.className.replace(/\b(current|ahead)\b/, "done"); });
      debriefShow();
    },
  };

  // The case-file panel shows what the seat may see at the stage being played: a new stage or
  // a document filed changes that, so the panel is fetched again from the room page.
  async function caseFileRefresh() {
    const current = document.getElementById("case-file");
    if (!current) return;
    const response = await fetch(location.href, { credentials: "same-origin" });
    if (!response.ok) return;
    const fresh = new DOMParser().parseFromString(await response.text(), "text/html").getElementById("case-file");
    if (fresh) current.replaceWith(fresh);
  }

  // The end: what the trial decided beside what the real court decided, and where to go
  // next, from the room page (rendered now that the trial is over); the controls that only
  // a running trial needs go.
  async function debriefShow() {
    if (document.getElementById("debrief")) return;
    const response = await fetch(location.href, { credentials: "same-origin" });
    if (!response.ok) return;
    const debrief = new DOMParser().parseFromString(await response.text(), "text/html").getElementById("debrief");
    if (!debrief) return;
    document.querySelectorAll(".while-running").forEach((element) => element.remove());
    room.querySelector(".room-grid").before(debrief);
    debrief.scrollIntoView({ behavior: "smooth", block: "start" });
  }

  function resume() {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "resume", after_seq: lastSeq() }));
  }

  // A turn or an await numbered past the next turn means frames were lost: replay once per
  // last complete turn (a stage this seat does not hear also leaves a gap, and one replay
  // settles that).
  function gapCheck(frame) {
    const known = lastSeq();
    if (!["turn.start", "turn.end", "await"].includes(frame.type) || !(frame.seq > known + 1) || resumedAt === known) return;
    resumedAt = known;
    resume();
  }

  function idleWatch() {
    clearTimeout(idle);
    if (!ended) idle = setTimeout(() => { resume(); idleWatch(); }, IDLE_MS);
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}${room.dataset.wsPath}?after_seq=${lastSeq()}`);
    socket.onopen = () => { retry = 0; resumedAt = -1; banner.link.textContent = phrase("live"); banner.link.hidden = finished; idleWatch(); if (following) follow(); };
    socket.onmessage = (event) => {
      const frame = JSON.parse(event.data);
      gapCheck(frame);
      (handlers[frame.type] || (() => {}))(frame);
      idleWatch();
    };
    socket.onclose = (event) => {
      clearTimeout(idle);
      // 4401: signed out; 4403: no seat here any more (handed back); 4404: reconnected with no
      // seat. Reconnecting would not help, nor would reloading: a private trial is not there
      // for someone without a seat.
      if (event.code === 4401 || event.code === 4403 || event.code === 4404) {
        ended = true;
        setAwaited(null);
        banner.link.textContent = phrase(event.code === 4401 ? "signed_out" : "no_seat");
        return;
      }
      banner.link.textContent = phrase("reconnecting");
      const delay = Math.min(30000, 500 * 2 ** retry++);
      setTimeout(connect, delay);
    };
  }

  if (composer.form) {
    composer.form.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && awaited && composer.decision.hidden) {
        event.preventDefault();
        composer.form.requestSubmit(composer.send);
      }
    });
    composer.form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (!awaited || !socket || socket.readyState !== WebSocket.OPEN) return;
      if (pending) return;
      if (awaited.document) {
        const sections = editor.values();
        if (!Object.values(sections).some((value) => value.trim())) return note.says("emptyDocument");
        return sayPending({ type: "say", text: "", sections, client_id: crypto.randomUUID() });
      }
      const decision = event.submitter && event.submitter.dataset.decision;
      const text = composer.text.value.trim() || (decision ? event.submitter.textContent : "");
      if (!text) return note.says("emptyText");
      const say = { type: "say", text, client_id: crypto.randomUUID() };
      if (decision) say.decision = decision;
      if (composer.last && !composer.last.hidden && composer.lastBox.checked) say.last = true;
      sayPending(say);
    });
    composer.form.addEventListener("input", () => lengthCount());
  }
  if (objectButton) {
    objectButton.addEventListener("click", () => groundMenuShow(groundMenu.hidden));
    groundMenu.querySelectorAll("[data-ground]").forEach((button) => button.addEventListener("click", () => {
      const ground = button.dataset.ground;
      const other = document.getElementById("objection-other");
      if (ground === "other" && !other.value.trim()) { other.focus(); return; }
      socket?.send(JSON.stringify({ type: "objection", ground, text: ground === "other" ? other.value.trim() : "" }));
      objectionNote("objection_sent");
      other.value = "";
      objectionWindow(false);
    }));
  }
  document.querySelectorAll("[data-control]").forEach((button) => button.addEventListener("click", () => {
    socket?.send(JSON.stringify({ type: "control", action: button.dataset.control }));
  }));
  const question = document.getElementById("question");
  if (question) {
    question.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = document.getElementById("question-text");
      if (!text.value.trim() || !socket) return;
      socket.send(JSON.stringify({ type: "control", action: "question", seat: document.getElementById("question-seat").value, text: text.value }));
      text.value = "";
    });
  }
  latestShow();
  // No socket for someone who handed their seat back: the page is what they may read of it.
  if (room.dataset.wsPath) connect();
})();
