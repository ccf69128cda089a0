// Choice attributes (dsl/ir/op_attrs.h): recorded from an enum, read back as
// the same enum, printed as the program spells them; reading one as another
// enum is a compiler bug and says so.
#include <gtest/gtest.h>

#include <stdexcept>

#include "dsl/ir/task_graph.h"

TEST(OpAttrs, ChoiceRoundTripAndText) {
    const dsl::Attr a = dsl::Attr::choice(dsl::Engine::Dma);
    EXPECT_EQ(a.as<dsl::Engine>(), dsl::Engine::Dma);
    EXPECT_EQ(dsl::attr_text(a), "'dma'");
    EXPECT_EQ(dsl::attr_text(dsl::Attr::choice(dsl::ImageLayout::NHWC)), "'NHWC'");
    EXPECT_EQ(dsl::choice_from_name<dsl::UpsampleMode>("bilinear"), dsl::UpsampleMode::Bilinear);
    EXPECT_EQ(dsl::choice_names<dsl::Engine>(), (std::vector<std::string>{"vector", "dma"}));
}

TEST(OpAttrs, ReadingAnotherEnumOrKindIsALogicError) {
    EXPECT_THROW(dsl::Attr::choice(dsl::Engine::Vector).as<dsl::UpsampleMode>(), std::logic_error);
    EXPECT_THROW(dsl::Attr::str("dma").as<dsl::Engine>(), std::logic_error);
    EXPECT_THROW(dsl::choice_from_name<dsl::Engine>("cube"), std::logic_error);
}
