# Charts of the tilejit-bench run in bench/results/cpu-amd-2026-12-05-day-b.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-amd-2026-12-05-day-b.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-amd-2026-12-05-day-b.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
64 31.2554
64 31.2321
EOD
$t0_1 << EOD
64 36.3178
EOD
$t0_2 << EOD
64 43.2031
64 40.1564
EOD
$t0_3 << EOD
64 48.798
EOD
$t0_4 << EOD
64 17.3776
EOD
$t0_5 << EOD
64 32.005
EOD
set output outdir.'/throughput_cpu_sum.png'
set title 'cpu/sum: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t0_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t0_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t0_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t0_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t0_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t0_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/histogram
$t1_0 << EOD
64 6.6165
64 6.56997
EOD
$t1_1 << EOD
64 6.03132
EOD
$t1_2 << EOD
64 11.5096
64 11.7359
EOD
$t1_3 << EOD
64 11.7124
EOD
$t1_4 << EOD
64 4.05137
EOD
$t1_5 << EOD
64 7.98522
EOD
set output outdir.'/throughput_cpu_histogram.png'
set title 'cpu/histogram: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t1_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t1_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t1_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t1_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t1_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t1_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/compact
$t2_0 << EOD
64 8.23001
64 8.39844
EOD
$t2_1 << EOD
64 10.2658
EOD
$t2_2 << EOD
64 10.307
64 10.6591
EOD
$t2_3 << EOD
64 19.0632
EOD
$t2_4 << EOD
64 4.84294
EOD
$t2_5 << EOD
64 9.3653
EOD
set output outdir.'/throughput_cpu_compact.png'
set title 'cpu/compact: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t2_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t2_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t2_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t2_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t2_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t2_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/copy
$t3_0 << EOD
64 29.5177
64 29.7347
EOD
$t3_1 << EOD
64 31.9893
EOD
$t3_2 << EOD
64 34.1496
64 34.5955
EOD
$t3_3 << EOD
64 36.8063
EOD
$t3_4 << EOD
64 15.6376
EOD
$t3_5 << EOD
64 26.2164
EOD
set output outdir.'/throughput_cpu_copy.png'
set title 'cpu/copy: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t3_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t3_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t3_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t3_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t3_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t3_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- ratios to the reference
$ratio_throughput << EOD
"cpu/sum: tilejit width-1, 1 thread" 1.16197
"cpu/sum: tilejit width-1, 2 threads" 1.1295
"cpu/sum: tilejit cooperative, 1 thread" 0.556403
"cpu/sum: tilejit cooperative, 2 threads" 0.79701
"cpu/histogram: tilejit width-1, 1 thread" 0.911558
"cpu/histogram: tilejit width-1, 2 threads" 1.01762
"cpu/histogram: tilejit cooperative, 1 thread" 0.61665
"cpu/histogram: tilejit cooperative, 2 threads" 0.680411
"cpu/compact: tilejit width-1, 1 thread" 1.24737
"cpu/compact: tilejit width-1, 2 threads" 1.84955
"cpu/compact: tilejit cooperative, 1 thread" 0.576647
"cpu/compact: tilejit cooperative, 2 threads" 0.878616
"cpu/copy: tilejit width-1, 1 thread" 1.08373
"cpu/copy: tilejit width-1, 2 threads" 1.0778
"cpu/copy: tilejit cooperative, 1 thread" 0.525905
"cpu/copy: tilejit cooperative, 2 threads" 0.757798
EOD
set output outdir.'/ratio_throughput.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_throughput using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0

# ---- ratios to the reference
$ratio_compile << EOD
"ptx/store_doubled_thread_indices" 16.8525
"ptx/multiply_elements" 13.8391
"ptx/row_products" 10.3826
"ptx/replace_rows" 11.8567
"ptx/histogram" 13.5253
"ptx/compact_values" 7.69144
"ptx/large" 1.73885
"ptx-first/store_doubled_thread_indices" 7.35089
"ptx-first/multiply_elements" 6.80511
"ptx-first/row_products" 5.82493
"ptx-first/replace_rows" 6.2448
"ptx-first/histogram" 7.0833
"ptx-first/compact_values" 4.76503
"ptx-first/large" 1.5965
"disk/store_doubled_thread_indices" 2.12054
"disk/store_doubled_thread_indices (CPU)" 7.09255
"disk/multiply_elements" 2.49015
"disk/multiply_elements (CPU)" 7.91974
"disk/row_products" 2.8183
"disk/row_products (CPU)" 7.17553
"disk/replace_rows" 2.51992
"disk/replace_rows (CPU)" 8.87517
"disk/histogram" 2.25763
"disk/histogram (CPU)" 7.55455
"disk/compact_values" 3.06104
"disk/compact_values (CPU)" 9.59584
"disk/large" 5.68079
"disk/large (CPU)" 32.8158
"source/store_doubled_thread_indices" 17.2936
"source-first/store_doubled_thread_indices" 7.02821
"source/multiply_elements" 13.9641
"source-first/multiply_elements" 7.02614
"source/row_products" 10.5255
"source-first/row_products" 5.92341
"source/replace_rows" 11.5373
"source-first/replace_rows" 6.2142
"source/histogram" 13.3733
"source-first/histogram" 6.39396
"source/compact_values" 7.64431
"source-first/compact_values" 4.76395
"source/large" 1.69147
"source-first/large" 1.59354
EOD
set output outdir.'/ratio_compile.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_compile using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0
