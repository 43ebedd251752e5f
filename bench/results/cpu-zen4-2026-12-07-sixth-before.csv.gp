# Charts of the tilejit-bench run in bench/results/cpu-zen4-2026-12-07-sixth-before.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-zen4-2026-12-07-sixth-before.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-zen4-2026-12-07-sixth-before.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
64 22.3652
64 21.2896
EOD
$t0_1 << EOD
64 21.7362
EOD
$t0_2 << EOD
64 31.2491
64 33.0382
EOD
$t0_3 << EOD
64 29.8733
EOD
$t0_4 << EOD
64 15.735
EOD
$t0_5 << EOD
64 30.8412
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
64 5.0748
64 6.53251
EOD
$t1_1 << EOD
64 6.61684
EOD
$t1_2 << EOD
64 7.3505
64 7.33186
EOD
$t1_3 << EOD
64 8.71474
EOD
$t1_4 << EOD
64 7.16951
EOD
$t1_5 << EOD
64 8.31236
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
64 8.15259
64 8.35291
EOD
$t2_1 << EOD
64 9.73683
EOD
$t2_2 << EOD
64 10.1462
64 7.13379
EOD
$t2_3 << EOD
64 15.8066
EOD
$t2_4 << EOD
64 6.82594
EOD
$t2_5 << EOD
64 10.7127
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
64 21.402
64 22.8103
EOD
$t3_1 << EOD
64 23.8631
EOD
$t3_2 << EOD
64 27.6324
64 29.283
EOD
$t3_3 << EOD
64 37.6363
EOD
$t3_4 << EOD
64 21.571
EOD
$t3_5 << EOD
64 27.4919
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
"cpu/sum: tilejit width-1, 1 thread" 0.971877
"cpu/sum: tilejit width-1, 2 threads" 0.955974
"cpu/sum: tilejit cooperative, 1 thread" 0.739094
"cpu/sum: tilejit cooperative, 2 threads" 0.933502
"cpu/histogram: tilejit width-1, 1 thread" 1.30386
"cpu/histogram: tilejit width-1, 2 threads" 1.1856
"cpu/histogram: tilejit cooperative, 1 thread" 1.09751
"cpu/histogram: tilejit cooperative, 2 threads" 1.13373
"cpu/compact: tilejit width-1, 1 thread" 1.19432
"cpu/compact: tilejit width-1, 2 threads" 1.55789
"cpu/compact: tilejit cooperative, 1 thread" 0.817193
"cpu/compact: tilejit cooperative, 2 threads" 1.50168
"cpu/copy: tilejit width-1, 1 thread" 1.11499
"cpu/copy: tilejit width-1, 2 threads" 1.36203
"cpu/copy: tilejit cooperative, 1 thread" 0.945669
"cpu/copy: tilejit cooperative, 2 threads" 0.938836
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
"ptx/store_doubled_thread_indices" 18.1691
"ptx/multiply_elements" 11.7296
"ptx/row_products" 9.94814
"ptx/replace_rows" 11.7675
"ptx/histogram" 13.1984
"ptx/compact_values" 7.309
"ptx/large" 1.69481
"ptx-first/store_doubled_thread_indices" 7.47984
"ptx-first/multiply_elements" 7.77353
"ptx-first/row_products" 5.7872
"ptx-first/replace_rows" 6.4909
"ptx-first/histogram" 8.90674
"ptx-first/compact_values" 4.97492
"ptx-first/large" 1.60953
"disk/store_doubled_thread_indices" 4.62974
"disk/store_doubled_thread_indices (CPU)" 8.25061
"disk/multiply_elements" 4.06135
"disk/multiply_elements (CPU)" 18.5005
"disk/row_products" 4.2704
"disk/row_products (CPU)" 11.5393
"disk/replace_rows" 5.63677
"disk/replace_rows (CPU)" 12.5305
"disk/histogram" 3.54266
"disk/histogram (CPU)" 12.4911
"disk/compact_values" 5.2163
"disk/compact_values (CPU)" 12.8133
"disk/large" 11.2242
"disk/large (CPU)" 29.9295
"source/store_doubled_thread_indices" 12.3491
"source-first/store_doubled_thread_indices" 7.78688
"source/multiply_elements" 13.4054
"source-first/multiply_elements" 8.36722
"source/row_products" 9.32642
"source-first/row_products" 6.02819
"source/replace_rows" 9.82143
"source-first/replace_rows" 8.66469
"source/histogram" 8.59726
"source-first/histogram" 6.75521
"source/compact_values" 5.25871
"source-first/compact_values" 4.44711
"source/large" 1.09531
"source-first/large" 1.43263
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
