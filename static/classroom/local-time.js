// Dates on the classroom's pages: the server writes them in its time zone with the zone
// named; here each <time data-local> is shown in the reader's own time zone, named too
// (the server's version stays in the tooltip).
(function () {
  "use strict";
  const language = document.documentElement.lang || undefined;
  let format;
  try {
    format = new Intl.DateTimeFormat(language, {
      year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short",
    });
  } catch (error) {
    return;
  }
  for (const element of document.querySelectorAll("time[data-local]")) {
    const when = new Date(element.getAttribute("datetime"));
    if (Number.isNaN(when.getTime())) continue;
    element.title = element.textContent;
    element.textContent = format.format(when);
  }
})();
