// Dates on the classroom's pages: the server writes them in its time zone with the zone
// named; here each <time data-local> is shown in the reader's own time zone, named too
// (the server's version stays in the tooltip). The text keeps Django's DATETIME_FORMAT of the
// page's language ("Nov. 27, 2026, 9:27 p.m." / "2026年11月27日 21:27"), so a date written
// here reads like the dates the server writes beside it.
(function () {
  "use strict";
  const language = document.documentElement.lang || "en";
  // Django's "N": the Associated Press month abbreviations.
  const AP_MONTHS = ["Jan.", "Feb.", "March", "April", "May", "June", "July", "Aug.", "Sept.", "Oct.", "Nov.", "Dec."];

  // Django's "P": 12-hour time, minutes left off on the hour, "noon" and "midnight".
  function djangoTime(hour, minute) {
    if (minute === 0 && hour === 0) return "midnight";
    if (minute === 0 && hour === 12) return "noon";
    const clock = String(hour % 12 || 12) + (minute ? ":" + String(minute).padStart(2, "0") : "");
    return clock + (hour < 12 ? " a.m." : " p.m.");
  }

  function formatted(parts) {
    const { year, month, day, hour, minute, zone } = parts;
    if (language.startsWith("zh")) {
      return `${year}年${month}月${day}日 ${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")} ${zone}`;
    }
    return `${AP_MONTHS[month - 1]} ${day}, ${year}, ${djangoTime(hour, minute)} ${zone}`;
  }

  let reader;
  try {
    reader = new Intl.DateTimeFormat("en-US", {
      year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric",
      hourCycle: "h23", timeZoneName: "short",
    });
  } catch (error) {
    return;
  }

  function partsOf(when) {
    const found = {};
    for (const part of reader.formatToParts(when)) found[part.type] = part.value;
    return {
      year: Number(found.year), month: Number(found.month), day: Number(found.day),
      hour: Number(found.hour) % 24, minute: Number(found.minute), zone: found.timeZoneName,
    };
  }

  for (const element of document.querySelectorAll("time[data-local]")) {
    const when = new Date(element.getAttribute("datetime"));
    if (Number.isNaN(when.getTime())) continue;
    element.title = element.textContent;
    element.textContent = formatted(partsOf(when));
  }
})();
