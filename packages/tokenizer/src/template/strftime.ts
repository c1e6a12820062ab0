// Python's datetime.strftime for the directives chat templates use (C locale, local time as
// Python's datetime.now() is): %d %m %Y %y %H %M %S %b %B %a %A %j %p %I %e %%. Any other
// directive is written as is (glibc does the same for unknown ones).
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

const pad = (n: number, w = 2): string => String(n).padStart(w, "0");

export function strftime(d: Date, format: string): string {
  return format.replace(/%(.)/gsu, (all, c: string) => {
    switch (c) {
      case "d":
        return pad(d.getDate());
      case "e":
        return String(d.getDate()).padStart(2, " ");
      case "m":
        return pad(d.getMonth() + 1);
      case "Y":
        return String(d.getFullYear());
      case "y":
        return pad(d.getFullYear() % 100);
      case "H":
        return pad(d.getHours());
      case "I":
        return pad(((d.getHours() + 11) % 12) + 1);
      case "p":
        return d.getHours() < 12 ? "AM" : "PM";
      case "M":
        return pad(d.getMinutes());
      case "S":
        return pad(d.getSeconds());
      case "b":
        return (MONTHS[d.getMonth()] as string).slice(0, 3);
      case "B":
        return MONTHS[d.getMonth()] as string;
      case "a":
        return (DAYS[d.getDay()] as string).slice(0, 3);
      case "A":
        return DAYS[d.getDay()] as string;
      case "j": {
        const start = new Date(d.getFullYear(), 0, 1);
        return pad(Math.floor((d.getTime() - start.getTime()) / 86_400_000) + 1, 3);
      }
      case "%":
        return "%";
      default:
        return all;
    }
  });
}
