"""The headings an article is filed under, for document expansion: its chapter and section
titles as the corpus gives them, the book (编) of the Civil Code it belongs to, which the corpus
omits, and, for an article of the Criminal Law that defines a charge, the charge's name, which
the statute's text never spells out (故意伤害罪 is the name the Supreme People's Court's charge
provisions give article 234; the article itself says 故意伤害他人身体的).

A pleading speaks in these headings (借款合同, 保证责任, 缓刑, 故意伤害罪) far more than in
the articles' own words, so the index files each article under them as well as under its text.
Both tables are facts about the statutes' structure, not about any case.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

CIVIL_CODE = "中华人民共和国民法典"
CRIMINAL_LAW = "中华人民共和国刑法"
CIVIL_CODE_BOOKS = (
    (1, "总则"),
    (205, "物权"),
    (463, "合同"),
    (989, "人格权"),
    (1040, "婚姻家庭"),
    (1119, "继承"),
    (1164, "侵权责任"),
)
"""The first article of each book of the Civil Code, in order."""
GENERAL_PROVISIONS = "一般规定"
CHARGE_ARTICLES: dict[str, tuple[str, ...]] = {
    "危险驾驶罪": ("133之一",),
    "交通肇事罪": ("133",),
    "放火罪": ("114", "115"),
    "以危险方法危害公共安全罪": ("114", "115"),
    "重大责任事故罪": ("134",),
    "生产、销售有毒、有害食品罪": ("144",),
    "生产、销售伪劣产品罪": ("140",),
    "非法经营罪": ("225",),
    "合同诈骗罪": ("224",),
    "信用卡诈骗罪": ("196",),
    "集资诈骗罪": ("192",),
    "非法吸收公众存款罪": ("176",),
    "虚开增值税专用发票罪": ("205",),
    "故意杀人罪": ("232",),
    "过失致人死亡罪": ("233",),
    "故意伤害罪": ("234",),
    "强奸罪": ("236",),
    "非法拘禁罪": ("238",),
    "侵犯公民个人信息罪": ("253之一",),
    "抢劫罪": ("263",),
    "盗窃罪": ("264",),
    "诈骗罪": ("266",),
    "抢夺罪": ("267",),
    "侵占罪": ("270",),
    "职务侵占罪": ("271",),
    "敲诈勒索罪": ("274",),
    "故意毁坏财物罪": ("275",),
    "妨害公务罪": ("277",),
    "帮助信息网络犯罪活动罪": ("287之二",),
    "聚众斗殴罪": ("292",),
    "寻衅滋事罪": ("293",),
    "赌博罪": ("303",),
    "开设赌场罪": ("303",),
    "掩饰、隐瞒犯罪所得罪": ("312",),
    "非法狩猎罪": ("341",),
    "滥伐林木罪": ("345",),
    "走私、贩卖、运输、制造毒品罪": ("347",),
    "非法持有毒品罪": ("348",),
    "容留他人吸毒罪": ("354",),
    "贪污罪": ("382", "383"),
    "挪用公款罪": ("384",),
    "受贿罪": ("385", "386"),
    "行贿罪": ("389", "390"),
}
"""The Criminal Law articles defining each common charge (its 罪状 and, where the penalty
stands apart, the article of its penalty), as the charge provisions name them."""
NUMBERED = re.compile(r"^第[一二三四五六七八九十百千零〇0-9]+[章节]\s*")
SUFFIX = re.compile(r"条(之[一二三四五六七八九十]+)$")


def heading_title(heading: str | None) -> str:
    """第十四章 租赁合同 -> 租赁合同; 第二节 保证责任 -> 保证责任."""
    return NUMBERED.sub("", heading or "").strip()


def civil_code_book(number: int | None) -> str:
    """The book of the Civil Code holding article ``number`` (1165 -> 侵权责任)."""
    books = [title for first, title in CIVIL_CODE_BOOKS if number is not None and number >= first]
    return books[-1] if books else ""


def chapter_title(law: str, chapter: str | None, number: int | None) -> str:
    """The chapter's title, told apart by its book where the Civil Code repeats one: each book
    opens with a chapter titled 一般规定, and the tort book's (1164-1178, fault liability and
    the victim's share of fault) is not the property book's."""
    title = heading_title(chapter)
    if law == CIVIL_CODE and title == GENERAL_PROVISIONS:
        return f"{civil_code_book(number)}编{title}"
    return title


def article_label(number: int | None, article_no: str) -> str:
    """第一百三十三条之一 (number 133) -> 133之一."""
    suffix = SUFFIX.search(article_no or "")
    return f"{number}{suffix.group(1) if suffix else ''}"


def headings(article: dict) -> Iterator[str]:
    """The headings ``article`` (a corpus row: law_name, chapter, section, article_no,
    article_no_arabic) is filed under beyond its chapter: its section's title, its Civil Code
    book, the charges it defines."""
    law, number = article["law_name"], article["article_no_arabic"]
    if article.get("section"):
        yield heading_title(article["section"])
    if law == CIVIL_CODE:
        yield civil_code_book(number)
    if law == CRIMINAL_LAW:
        label = article_label(number, article["article_no"])
        for charge, articles in CHARGE_ARTICLES.items():
            if label in articles:
                yield from dict.fromkeys([charge, *charge_forms(charge)])


def charge_forms(charge: str) -> list[str]:
    """The single charges a selective one names (选择性罪名): 走私、贩卖、运输、制造毒品罪 is
    charged as 贩卖毒品罪 where only selling is proved, and a judgment names it so. The acts
    before the last share its length (走私, 贩卖, 运输 and 制造); the rest of the last part is
    the object every act takes (毒品罪)."""
    parts = charge.split("、")
    width = len(parts[0])
    if len(parts) < 2 or any(len(part) != width for part in parts[:-1]) or len(parts[-1]) <= width + 1:
        return []
    target = parts[-1][width:]
    return [f"{act}{target}" for act in (*parts[:-1], parts[-1][:width])]


def charge_names(charges: str) -> list[str]:
    """The charges a cause names: 贩卖、运输毒品罪 is one charge, 盗窃罪、诈骗罪 are two."""
    return [name.strip() for name in re.split(r"(?<=罪)[、，,和及]", charges or "") if name.strip().endswith("罪")]


def charge_full_name(charge: str) -> str:
    """The name the charge provisions give ``charge``: 贩卖毒品罪 -> 走私、贩卖、运输、制造毒品罪."""
    if charge in CHARGE_ARTICLES:
        return charge
    return next((name for name in CHARGE_ARTICLES if charge in charge_forms(name)), charge)


def charge_articles(charge: str) -> tuple[str, ...]:
    """The articles defining ``charge``, named in full or as one act of a selective charge."""
    return CHARGE_ARTICLES.get(charge_full_name(charge), ())
