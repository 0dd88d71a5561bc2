"""The sentence reader against judgments written as courts write them: where the orders are,
whose sentence, which penalty, the term, probation and fine."""

from __future__ import annotations

import pytest

from court.documents import document_compose
from court.legaltext.sentences import NOTHING_READ, Sentence, judgment_sentences, principal_penalty, sentence_extract

ORDERS = "综上，依照《中华人民共和国刑法》第二百六十四条、第六十七条第三款之规定，判决如下："
PRIOR = "被告人张某，男，1980年出生。曾因犯盗窃罪于2015年3月被判处有期徒刑三年，2017年刑满释放。"


def read(penalty: str | None, months: float | None, probation: float | None = 0, fine: float = 0.0, admin=False):
    """The sentence expected: ``probation`` in months, 0 for none, None for an unstated length."""
    return Sentence(months, probation != 0, probation, fine, penalty, admin)


# (judgment text, defendant asked for or None, expected sentence)
CHINESE = [
    # where the orders are
    (
        f"{ORDERS}\n被告人张某犯盗窃罪，判处有期徒刑一年六个月，并处罚金人民币五千元。",
        None,
        read("fixed_term", 18, fine=5000),
    ),
    (f"{ORDERS}被告人张某犯盗窃罪，判处有期徒刑六个月，并处罚金人民币二千元。", None, read("fixed_term", 6, fine=2000)),
    (
        f"{PRIOR}本院认为，被告人张某系累犯，应当从重处罚。{ORDERS}被告人张某犯盗窃罪，判处有期徒刑十个月，并处罚金人民币三千元。",
        None,
        read("fixed_term", 10, fine=3000),
    ),
    (
        "公诉机关建议判处被告人韩某有期徒刑一年至一年六个月，并处罚金。本院认为……判决如下：被告人韩某犯盗窃罪，判处有期徒刑一年二个月，并处罚金人民币四千元。",
        None,
        read("fixed_term", 14, fine=4000),
    ),
    (
        "辩护人作无罪辩护，本院不予采纳。判决如下：被告人陈某犯诈骗罪，判处有期徒刑三年，并处罚金人民币二万元。",
        None,
        read("fixed_term", 36, fine=20000),
    ),
    (
        "判决如下：\n一、被告人沈某犯交通肇事罪，判处有期徒刑三年，缓刑三年。\n如不服本判决，可在接到判决书的第二日起十日内，通过本院或者直接向上一级人民法院提出上诉。\n审　判　长　张三",
        None,
        read("fixed_term", 36, 36),
    ),
    ("被告人杨某犯盗窃罪，判处有期徒刑九个月，并处罚金人民币二千元。", None, read("fixed_term", 9, fine=2000)),
    (
        "被告人杨某曾因犯抢劫罪被判处有期徒刑五年。被告人杨某犯盗窃罪，判处有期徒刑九个月。",
        None,
        read("fixed_term", 9),
    ),
    (
        "公诉机关建议判处有期徒刑二年。被告人杨某犯盗窃罪，判处有期徒刑一年。",
        None,
        read("fixed_term", 12),
    ),
    # terms: years, months, days, 半, 又, 零, Arabic and full-width digits
    (f"{ORDERS}被告人赵某犯故意伤害罪，判处有期徒刑一年半。", None, read("fixed_term", 18)),
    (
        f"{ORDERS}被告人赵某犯诈骗罪，判处有期徒刑三年又六个月，并处罚金人民币三万元。",
        None,
        read("fixed_term", 42, fine=30000),
    ),
    (f"{ORDERS}被告人赵某犯故意伤害罪，判处有期徒刑一年又三个月。", None, read("fixed_term", 15)),
    (
        f"{ORDERS}被告人周某犯诈骗罪，判处有期徒刑二年零八个月，并处罚金人民币一万五千元。",
        None,
        read("fixed_term", 32, fine=15000),
    ),
    (f"{ORDERS}被告人周某犯盗窃罪，判处有期徒刑一年零六个月。", None, read("fixed_term", 18)),
    (
        f"{ORDERS}被告人刘某犯盗窃罪，判处有期徒刑1年6个月，并处罚金人民币5000元。",
        None,
        read("fixed_term", 18, fine=5000),
    ),
    (
        f"{ORDERS}被告人刘某犯盗窃罪，判处有期徒刑１年６个月，并处罚金人民币５０００元。",
        None,
        read("fixed_term", 18, fine=5000),
    ),
    (
        f"{ORDERS}被告人刘某犯盗窃罪，判处有期徒刑 3 年，并处罚金人民币 20000 元。",
        None,
        read("fixed_term", 36, fine=20000),
    ),
    (f"{ORDERS}被告人刘某犯盗窃罪，判处有期徒刑1.5年。", None, read("fixed_term", 18)),
    (
        f"{ORDERS}被告人王某犯危险驾驶罪，判处拘役一个月十五日，并处罚金人民币二千元。",
        None,
        read("criminal_detention", 1.5, fine=2000),
    ),
    (
        f"{ORDERS}被告人王某犯危险驾驶罪，判处拘役三个月十日，并处罚金人民币三千元。",
        None,
        read("criminal_detention", 3 + 10 / 30, fine=3000),
    ),
    (
        f"{ORDERS}被告人王某犯危险驾驶罪，判处拘役二十日，并处罚金人民币一千元。",
        None,
        read("criminal_detention", 20 / 30, fine=1000),
    ),
    (f"{ORDERS}被告人孙某犯抢劫罪，判处有期徒刑两年，并处罚金人民币两万元。", None, read("fixed_term", 24, fine=20000)),
    (
        f"{ORDERS}被告人孙某犯抢劫罪，判处有期徒刑十五年，剥夺政治权利三年，并处罚金人民币五万元。",
        None,
        read("fixed_term", 180, fine=50000),
    ),
    (f"{ORDERS}被告人孙某犯强奸罪，判处有期徒刑七年，剥夺政治权利一年。", None, read("fixed_term", 84)),
    (f"{ORDERS}被告人郑某犯寻衅滋事罪，判处管制一年。", None, read("public_surveillance", 12)),
    (f"{ORDERS}被告人郑某犯寻衅滋事罪，判处管制半年。", None, read("public_surveillance", 6)),
    (f"{ORDERS}被告人郑某犯寻衅滋事罪，判处管制十个月。", None, read("public_surveillance", 10)),
    (
        f"{ORDERS}一、被告人郑某犯故意伤害罪，判处有期徒刑六个月；\n二、扣押在案的管制刀具一把，予以没收。",
        None,
        read("fixed_term", 6),
    ),
    # aggregate sentences
    (
        f"{ORDERS}被告人周某犯盗窃罪，判处有期徒刑二年；犯诈骗罪，判处有期徒刑一年六个月；总和刑期三年六个月，决定执行有期徒刑三年，并处罚金人民币一万元。",
        None,
        read("fixed_term", 36, fine=10000),
    ),
    (
        f"{ORDERS}被告人李某犯盗窃罪，判处有期徒刑一年，并处罚金人民币五千元；犯故意伤害罪，判处有期徒刑二年；决定执行有期徒刑二年六个月，并处罚金人民币五千元。",
        None,
        read("fixed_term", 30, fine=5000),
    ),
    (
        f"{ORDERS}被告人李某犯盗窃罪，判处有期徒刑一年，并处罚金人民币五千元；犯诈骗罪，判处有期徒刑二年，并处罚金人民币一万元；决定执行有期徒刑二年六个月。",
        None,
        read("fixed_term", 30, fine=15000),
    ),
    (
        f"{ORDERS}被告人李某犯盗窃罪，判处有期徒刑二年；犯诈骗罪，判处有期徒刑一年六个月；合并刑期三年。",
        None,
        read("fixed_term", 36),
    ),
    (
        f"{ORDERS}被告人李某犯盗窃罪，判处有期徒刑二年六个月；犯诈骗罪，判处有期徒刑二年；数罪并罚，合并执行有期徒刑四年，并处罚金人民币二万元。",
        None,
        read("fixed_term", 48, fine=20000),
    ),
    (
        f"{ORDERS}被告人吕某犯抢劫罪，判处有期徒刑十五年；犯故意伤害罪，判处无期徒刑；决定执行无期徒刑，剥夺政治权利终身。",
        None,
        read("life_imprisonment", None),
    ),
    (
        f"{ORDERS}被告人吕某犯抢劫罪，判处有期徒刑十三年；犯盗窃罪，判处有期徒刑十年；决定执行有期徒刑二十年。",
        None,
        read("fixed_term", 240),
    ),
    (
        f"{ORDERS}一、撤销某某区人民法院（2019）某0102刑初12号刑事判决中对被告人陈某宣告缓刑三年的执行部分；二、被告人陈某犯盗窃罪，判处有期徒刑一年，与前罪判处的有期徒刑二年并罚，决定执行有期徒刑二年六个月。",
        None,
        read("fixed_term", 30),
    ),
    # life, death, exemption, acquittal
    (f"{ORDERS}被告人吴某犯故意杀人罪，判处无期徒刑，剥夺政治权利终身。", None, read("life_imprisonment", None)),
    (
        f"{ORDERS}被告人吴某犯受贿罪，判处无期徒刑，剥夺政治权利终身，并处没收个人全部财产。",
        None,
        read("life_imprisonment", None),
    ),
    (
        f"{ORDERS}被告人吴某犯故意杀人罪，判处死刑，缓期二年执行，剥夺政治权利终身。",
        None,
        read("death_suspended", None),
    ),
    (
        f"{ORDERS}被告人吴某犯贩卖毒品罪，判处死刑缓期二年执行，剥夺政治权利终身，并处没收个人全部财产。",
        None,
        read("death_suspended", None),
    ),
    (f"{ORDERS}被告人吴某犯故意杀人罪，判处死刑，缓期两年执行，限制减刑。", None, read("death_suspended", None)),
    (f"{ORDERS}被告人吴某犯故意杀人罪，判处死刑，剥夺政治权利终身。", None, read("death", None)),
    (f"{ORDERS}被告人吴某犯抢劫罪，判处死刑立即执行，剥夺政治权利终身。", None, read("death", None)),
    (f"{ORDERS}被告人冯某犯过失致人死亡罪，免予刑事处罚。", None, read("exempt", 0)),
    (f"{ORDERS}被告人冯某犯故意伤害罪，免于刑事处罚。", None, read("exempt", 0)),
    (f"{ORDERS}被告人陈某无罪。", None, read("acquitted", 0)),
    (f"{ORDERS}宣告被告人陈某无罪。", None, read("acquitted", 0)),
    # probation: its length, and negations
    (
        f"{ORDERS}被告人王某犯危险驾驶罪，判处拘役二个月，缓刑三个月，并处罚金人民币四千元。",
        None,
        read("criminal_detention", 2, 3, 4000),
    ),
    (
        f"{ORDERS}被告人王某犯危险驾驶罪，判处拘役五个月，缓刑六个月，并处罚金人民币八千元。",
        None,
        read("criminal_detention", 5, 6, 8000),
    ),
    (f"{ORDERS}被告人何某犯盗窃罪，判处有期徒刑一年，缓刑考验期限为一年六个月。", None, read("fixed_term", 12, 18)),
    (
        f"{ORDERS}被告人何某犯盗窃罪，判处有期徒刑一年，缓刑2年，并处罚金人民币1000元。",
        None,
        read("fixed_term", 12, 24, 1000),
    ),
    (
        f"{ORDERS}被告人何某犯非法经营罪，判处有期徒刑二年，缓刑三年，并处罚金人民币十万元。\n（缓刑考验期限，从判决确定之日起计算。）",
        None,
        read("fixed_term", 24, 36, 100000),
    ),
    (f"{ORDERS}被告人何某犯盗窃罪，判处有期徒刑一年，宣告缓刑。", None, read("fixed_term", 12, None)),
    (
        f"本院认为，被告人何某多次盗窃，不宜适用缓刑。{ORDERS}被告人何某犯盗窃罪，判处有期徒刑一年。",
        None,
        read("fixed_term", 12),
    ),
    (
        f"辩护人关于对被告人何某适用缓刑的辩护意见，与查明的事实不符，本院不予采纳。{ORDERS}被告人何某犯盗窃罪，判处有期徒刑八个月，并处罚金人民币二千元。",
        None,
        read("fixed_term", 8, fine=2000),
    ),
    (f"{ORDERS}被告人何某犯盗窃罪，判处有期徒刑一年，不适用缓刑。", None, read("fixed_term", 12)),
    (f"{ORDERS}被告人何某犯盗窃罪，判处有期徒刑二年（未宣告缓刑）。", None, read("fixed_term", 24)),
    ("本院认为，被告人何某系累犯，不适用缓刑。被告人何某犯盗窃罪，判处有期徒刑一年。", None, read("fixed_term", 12)),
    # fines: amounts in any numeral, 罚款 flagged
    (
        f"{ORDERS}被告人钱某犯非法吸收公众存款罪，判处有期徒刑三年，缓刑四年，并处罚金人民币十万元。",
        None,
        read("fixed_term", 36, 48, 100000),
    ),
    (
        f"{ORDERS}被告人钱某犯集资诈骗罪，判处有期徒刑十年，并处罚金人民币五十万元。",
        None,
        read("fixed_term", 120, fine=500000),
    ),
    (
        f"{ORDERS}被告人钱某犯受贿罪，判处有期徒刑十一年，并处罚金人民币一百万元。",
        None,
        read("fixed_term", 132, fine=1000000),
    ),
    (
        f"{ORDERS}被告人钱某犯抢劫罪，判处有期徒刑三年，并处罚金人民币1.5万元。",
        None,
        read("fixed_term", 36, fine=15000),
    ),
    (f"{ORDERS}被告人钱某犯盗窃罪，判处有期徒刑四年，并处罚金人民币五万元。", None, read("fixed_term", 48, fine=50000)),
    (
        f"{ORDERS}被告人钱某犯盗窃罪，判处拘役四个月，并处罚金人民币二千元。",
        None,
        read("criminal_detention", 4, fine=2000),
    ),
    (
        f"{ORDERS}被告人钱某犯盗窃罪，判处有期徒刑八个月，并处罚金人民币3,000元。",
        None,
        read("fixed_term", 8, fine=3000),
    ),
    (
        f"{ORDERS}被告人钱某犯合同诈骗罪，判处有期徒刑六年，并处罚金人民币100,000元。",
        None,
        read("fixed_term", 72, fine=100000),
    ),
    (
        f"{ORDERS}被告人钱某犯职务侵占罪，判处有期徒刑五年，并处罚金人民币二十五万元。",
        None,
        read("fixed_term", 60, fine=250000),
    ),
    (f"{ORDERS}被告人钱某犯诈骗罪，判处有期徒刑四年，并处罚金人民币3万元。", None, read("fixed_term", 48, fine=30000)),
    (
        f"{ORDERS}被告人钱某犯盗窃罪，判处有期徒刑七个月，并处罚金人民币一千五百元。",
        None,
        read("fixed_term", 7, fine=1500),
    ),
    (
        f"{ORDERS}被告人钱某犯盗窃罪，判处有期徒刑七个月，并处罚金人民币二千五百元。",
        None,
        read("fixed_term", 7, fine=2500),
    ),
    (
        f"{ORDERS}被告人钱某犯盗窃罪，判处有期徒刑一年，并处罚金人民币一万元整。",
        None,
        read("fixed_term", 12, fine=10000),
    ),
    (f"{ORDERS}被告人钱某犯盗窃罪，判处有期徒刑一年，并处罚金二十万元。", None, read("fixed_term", 12, fine=200000)),
    (
        f"{ORDERS}被告人钱某犯盗窃罪，判处拘役三个月，并处罚金人民币二千元（已缴纳）。",
        None,
        read("criminal_detention", 3, fine=2000),
    ),
    (
        f"{ORDERS}被告人钱某犯走私普通货物罪，判处有期徒刑十二年，并处罚金人民币一亿二千万元。",
        None,
        read("fixed_term", 144, fine=120_000_000),
    ),
    (f"{ORDERS}被告人钱某犯抢劫罪，判处有期徒刑十年，并处没收个人财产人民币十万元。", None, read("fixed_term", 120)),
    (
        f"{ORDERS}一、被告人钱某犯诈骗罪，判处有期徒刑三年，并处罚金人民币五千元；二、责令被告人钱某退赔被害人经济损失人民币二万元。",
        None,
        read("fixed_term", 36, fine=5000),
    ),
    (
        f"{ORDERS}被告人褚某犯赌博罪，判处有期徒刑六个月，并处罚款人民币五千元。",
        None,
        read("fixed_term", 6, fine=5000, admin=True),
    ),
    (
        f"{ORDERS}被告人褚某犯赌博罪，判处管制六个月，并处罚款人民币3,000元。",
        None,
        read("public_surveillance", 6, fine=3000, admin=True),
    ),
    # several defendants
    (
        f"{ORDERS}一、被告人张某犯盗窃罪，判处有期徒刑一年，并处罚金人民币二千元；二、被告人李某犯盗窃罪，判处有期徒刑八个月，缓刑一年，并处罚金人民币一千元。",
        "李某",
        read("fixed_term", 8, 12, 1000),
    ),
    (
        f"{ORDERS}一、被告人张某犯盗窃罪，判处有期徒刑一年，并处罚金人民币二千元；二、被告人李某犯盗窃罪，判处有期徒刑八个月，缓刑一年，并处罚金人民币一千元。",
        None,
        read("fixed_term", 12, fine=2000),
    ),
    (
        f"{ORDERS}一、被告人张某犯盗窃罪，判处有期徒刑一年；二、被告人李某犯盗窃罪，判处有期徒刑八个月；三、责令被告人张某退赔被害人损失。",
        "张某",
        read("fixed_term", 12),
    ),
    (
        f"{ORDERS}一、被告单位某某科技有限公司犯单位行贿罪，判处罚金人民币五十万元；二、被告人卫某犯单位行贿罪，判处有期徒刑二年，缓刑三年。",
        "卫某",
        read("fixed_term", 24, 36),
    ),
    (
        f"{ORDERS}一、被告单位某某科技有限公司犯单位行贿罪，判处罚金人民币五十万元；二、被告人卫某犯单位行贿罪，判处有期徒刑二年，缓刑三年。",
        "某某科技有限公司",
        read(None, 0, fine=500000),
    ),
    (f"{ORDERS}一、被告人甲某无罪；二、被告人乙某犯诈骗罪，判处有期徒刑一年。", "乙某", read("fixed_term", 12)),
    (f"{ORDERS}一、被告人甲某无罪；二、被告人乙某犯诈骗罪，判处有期徒刑一年。", "甲某", read("acquitted", 0)),
]

ENGLISH = [
    (
        "The defendant is sentenced to fixed-term imprisonment of two years and eight months and a fine of RMB 15,000.",
        None,
        read("fixed_term", 32, fine=15000),
    ),
    (
        "Criminal detention of 2 months, suspended for 3 months, and a fine of RMB 4,000.",
        None,
        read("criminal_detention", 2, 3, 4000),
    ),
    ("Three years' fixed-term imprisonment with probation.", None, read("fixed_term", 36, None)),
    ("The defendant is sentenced to life imprisonment.", None, read("life_imprisonment", None)),
    (
        "The defendant was previously sentenced to two years' imprisonment for theft in 2015. The court orders: the "
        "defendant is sentenced to 18 months' imprisonment, suspended for two years, and fined RMB 5,000.",
        None,
        read("fixed_term", 18, 24, 5000),
    ),
    (
        "The court orders: Defendant Zhou Wei is guilty of fraud and is sentenced to two years and eight months of "
        "fixed-term imprisonment and a fine of RMB 15,000.",
        None,
        read("fixed_term", 32, fine=15000),
    ),
    ("The court orders: one and a half years' imprisonment.", None, read("fixed_term", 18)),
    ("The court orders: imprisonment of one year and three months.", None, read("fixed_term", 15)),
    (
        "The court orders: criminal detention of three months and ten days.",
        None,
        read("criminal_detention", 3 + 10 / 30),
    ),
    ("The court orders: public surveillance of one year.", None, read("public_surveillance", 12)),
    (
        "The court orders: the defendant is sentenced to death with a two-year reprieve.",
        None,
        read("death_suspended", None),
    ),
    ("The court orders: the defendant is sentenced to death.", None, read("death", None)),
    ("The court orders: the defendant is exempted from criminal punishment.", None, read("exempt", 0)),
    ("The court orders: the defendant is not guilty.", None, read("acquitted", 0)),
    (
        "The court orders: criminal detention of four months; probation is not granted; a fine of RMB 2,000.",
        None,
        read("criminal_detention", 4, fine=2000),
    ),
    (
        "Counsel's request for probation is rejected. The court orders: the defendant is sentenced to imprisonment of one year.",
        None,
        read("fixed_term", 12),
    ),
    (
        "The court orders: for theft, one year's imprisonment; for fraud, two years' imprisonment; the court decided to "
        "execute fixed-term imprisonment of two years and six months and a fine of RMB 10,000.",
        None,
        read("fixed_term", 30, fine=10000),
    ),
    (
        "The court orders: six months' imprisonment and an administrative fine of RMB 3,000.",
        None,
        read("fixed_term", 6, fine=3000, admin=True),
    ),
    (
        "The court orders: 18 months' imprisonment and a fine of RMB 20 thousand.",
        None,
        read("fixed_term", 18, fine=20000),
    ),
    (
        "The court orders: 1. Defendant Li Ming is guilty of theft and is sentenced to one year's imprisonment; "
        "2. Defendant Wang Fang is guilty of theft and is sentenced to eight months' imprisonment, suspended for one year.",
        "Wang Fang",
        read("fixed_term", 8, 12),
    ),
]


def _same(got: Sentence, expected: Sentence) -> None:
    for field in ("penalty", "probation", "fine", "fine_administrative"):
        assert getattr(got, field) == getattr(expected, field), field
    for field in ("imprisonment_months", "probation_months"):
        value = getattr(expected, field)
        assert getattr(got, field) == (value if value is None else pytest.approx(value, abs=1e-3)), field


def test_the_table_has_at_least_eighty_phrasings():
    assert len(CHINESE) + len(ENGLISH) >= 80


@pytest.mark.parametrize(("text", "defendant", "expected"), CHINESE)
def test_chinese_judgments_are_read_as_courts_write_them(text: str, defendant: str | None, expected: Sentence):
    _same(sentence_extract(text, "zh", defendant), expected)


@pytest.mark.parametrize(("text", "defendant", "expected"), ENGLISH)
def test_english_judgments_are_read(text: str, defendant: str | None, expected: Sentence):
    _same(sentence_extract(text, "en", defendant), expected)


def test_every_defendant_gets_their_own_sentence_in_order():
    text = (
        f"{ORDERS}一、被告人张某犯盗窃罪，判处有期徒刑一年；二、被告人李某犯盗窃罪，判处拘役五个月，缓刑六个月；"
        "三、被告人王某无罪。"
    )
    assert list(judgment_sentences(text, "zh").items()) == [
        ("张某", read("fixed_term", 12)),
        ("李某", read("criminal_detention", 5, 6)),
        ("王某", read("acquitted", 0)),
    ]


def test_a_judgment_without_a_sentence_reads_as_nothing():
    assert sentence_extract("本院认为，事实清楚，证据确实、充分。", "zh") == NOTHING_READ
    assert sentence_extract("", "en") == NOTHING_READ


def test_the_orders_section_of_a_composed_judgment_wins_over_the_recommendation_in_its_reasoning():
    judgment = document_compose(
        "criminal_judgment",
        "zh",
        {
            "reasoning": "公诉机关建议判处拘役三个月，并处罚金五千元。",
            "orders": "被告人刘某某犯危险驾驶罪，判处拘役二个月，缓刑三个月，并处罚金人民币四千元。",
        },
    )
    assert sentence_extract(judgment, "zh") == read("criminal_detention", 2, 3, 4000)


@pytest.mark.parametrize(
    ("phrase", "penalty"),
    [
        ("无期徒刑", ("life_imprisonment", None)),
        ("死刑缓期二年执行", ("death_suspended", None)),
        ("死刑，缓期二年执行", ("death_suspended", None)),
        ("死刑", ("death", None)),
        ("拘役三个月", ("criminal_detention", 3)),
        ("管制刀具", None),
    ],
)
def test_a_penalty_named_alone_is_recognised(phrase: str, penalty):
    assert principal_penalty(phrase) == penalty
